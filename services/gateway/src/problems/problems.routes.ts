import { type Router } from 'express';
import { caseSensitiveRouter } from '@register/service-kit';
import { problemIndex, problemPage, sendNotFound } from '@register/problem';

/** ADR 0004: `type` is `/problems/<slug>`; the gateway serves a page for every slug (unknown: bare 404). */
export function problemsRouter(): Router {
  const router = caseSensitiveRouter();
  router.get('/problems', (_req, res) => {
    res.type('html').send(problemIndex());
  });
  router.get('/problems/:slug', (req, res) => {
    const page = problemPage(String(req.params['slug']));
    if (page === null) return sendNotFound(res);
    res.type('html').send(page);
  });
  return router;
}
