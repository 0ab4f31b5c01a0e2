import express, { Router } from 'express';
import type { Provider } from 'oidc-provider';
import { LEVELS, accountByLogin, subjectOf, type Level } from './accounts';
import { loginPage } from './login-page';

const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

/** The login interaction oidc-provider hands over to (`/interaction/:uid`): the page, sign in, cancel. */
export function interactionRoutes(provider: Provider): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '4kb' });

  router.get('/interaction/:uid', async (req, res, next) => {
    try {
      const details = await provider.interactionDetails(req, res);
      res.setHeader('Content-Security-Policy', PAGE_CSP);
      res.setHeader('Cache-Control', 'no-store');
      res.type('html').send(loginPage(details.uid, 'het demoportaal'));
    } catch (err) {
      next(err);
    }
  });

  router.post('/interaction/:uid/login', form, async (req, res, next) => {
    try {
      await provider.interactionDetails(req, res);
      const body = req.body as Record<string, unknown>;
      const account = accountByLogin(typeof body['account'] === 'string' ? body['account'] : '');
      const level = typeof body['level'] === 'string' ? body['level'] : 'basis';
      if (!account || !(level in LEVELS)) {
        res.status(400).type('text').send('Onbekend account of inlogniveau.');
        return;
      }
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: subjectOf(account), acr: LEVELS[level as Level], amr: ['pwd'] } },
        { mergeWithLastSubmission: false },
      );
    } catch (err) {
      next(err);
    }
  });

  router.post('/interaction/:uid/abort', async (req, res, next) => {
    try {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'De gebruiker heeft het inloggen afgebroken.' },
        { mergeWithLastSubmission: false },
      );
    } catch (err) {
      next(err);
    }
  });
  return router;
}
