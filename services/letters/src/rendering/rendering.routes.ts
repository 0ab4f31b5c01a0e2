import { type Router, type Request } from 'express';
import { caseSensitiveRouter } from '@register/service-kit';
import type { z } from 'zod';
import { guardFor } from '@register/authz';
import { letters } from '@register/contracts';
import { validationError, zodIssuesToFieldErrors } from '@register/problem';
import { BriefQuery } from '../briefs/briefs.schemas';
import type { Context } from '../context';
import { SubOrgParams } from '../templates/templates.schemas';
import { letterHtml, letterPdf, testLetterPdf } from './render-letter';

function parse<S extends z.ZodType>(schema: S, value: unknown, part: string): z.output<S> {
  const result = schema.safeParse(value);
  // The field as the client wrote it (`referentie`), without the request part, as every operation names it.
  if (!result.success) throw validationError(zodIssuesToFieldErrors(result.error), `The request ${part} is invalid.`);
  return result.data;
}

const address = (req: Request) => ({ referentie: parse(BriefQuery, req.query, 'query').referentie ?? null });

const HTML_POLICY =
  "default-src 'none'; img-src data:; style-src 'unsafe-inline'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

function pdfHeaders(name: string): Record<string, string> {
  return {
    'Content-Type': 'application/pdf',
    'Content-Disposition': `inline; filename="${name}.pdf"`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  };
}

/**
 * The letter as HTML and PDF and the test letter: hand-called routes outside the OpenAPI description (spec,
 * Letters), guarded by their rules like every other route.
 */
export function renderingRouter(ctx: Context): Router {
  const router = caseSensitiveRouter();
  router.get(letters.routes.previewBrief.path, guardFor(letters.routes.previewBrief), async (req, res) => {
    const html = await letterHtml(ctx, address(req));
    res
      .set({
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': HTML_POLICY,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      })
      .send(html);
  });
  router.get(letters.routes.briefPdf.path, guardFor(letters.routes.briefPdf), async (req, res) => {
    const target = address(req);
    const pdf = await letterPdf(ctx, target);
    res
      .set(pdfHeaders(target.referentie ? `brief-${target.referentie.replace(/[^A-Za-z0-9-]/g, '')}` : 'brief'))
      .send(pdf);
  });
  router.post(letters.routes.testLetter.path, guardFor(letters.routes.testLetter), async (req, res) => {
    const { subOrgId } = parse(SubOrgParams, req.params, 'params');
    const pdf = await testLetterPdf(ctx, subOrgId);
    res.set(pdfHeaders(`testbrief-${subOrgId.replace(/[^A-Za-z0-9-]/g, '')}`)).send(pdf);
  });
  return router;
}
