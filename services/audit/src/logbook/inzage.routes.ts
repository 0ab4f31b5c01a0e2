import { z } from 'zod';
import { audit } from '@register/contracts';
import { DomainError, validationError, zodIssuesToFieldErrors } from '@register/problem';
import { defineOperation, nextLink, pageQuery, pseudonymOf } from '@register/service-kit';
import type { Context } from '../context';
import { readVerwerkingen } from './inzage';

export const Verwerking = z
  .strictObject({
    verwerkingsactiviteit: z.strictObject({ id: z.string(), naam: z.string() }),
    tijdstip: z
      .string()
      .meta({ description: 'RFC 3339 UTC with milliseconds: when the processing ended', format: 'date-time' }),
    status: z.enum(['Unset', 'Ok', 'Error']),
    door: z.enum(['zelf', 'medewerker', 'systeem']).meta({ description: 'The kind of actor, never who' }),
  })
  .meta({ id: 'Verwerking' });

const PageParams = z.object({
  limit: z.any().optional().meta({ type: 'integer', minimum: 1, maximum: 1000, description: 'Records per page' }),
  cursor: z.any().optional().meta({ type: 'string', maxLength: 500, description: 'From the `Link: rel="next"`' }),
});

const listVerwerkingen = defineOperation({
  rule: audit.routes.meVerwerkingen,
  operationId: 'listMyVerwerkingen',
  summary: 'Read the processing of my own personal data',
  description:
    'The practitioner’s own processing log (Logboek Dataverwerkingen), newest first: which activity, when, ' +
    'with what outcome, and by which kind of actor (`zelf`, `medewerker`, `systeem`). Paged with `limit` and ' +
    '`cursor` (`Link: rel="next"`). An administrator’s session is refused (403): the inzage is the data subject’s.',
  query: PageParams,
  responses: { 200: z.array(Verwerking) },
  handle: async (ctx: Context, { query, req, identity }) => {
    const practitioner = identity?.practitioner;
    if (!practitioner || practitioner.role === 'admin')
      throw new DomainError('forbidden', 'The inzage shows a practitioner their own processing log.');
    const secret = ctx.config.LDV_PSEUDONYM_SECRET;
    if (!secret) throw new DomainError('unavailable', 'The processing log is off in this deployment.');
    const parsed = pageQuery.safeParse(query);
    if (!parsed.success) throw validationError(zodIssuesToFieldErrors(parsed.error));
    const pseudonym = pseudonymOf(practitioner.subject, secret);
    const page = await readVerwerkingen(ctx.db, pseudonym, parsed.data);
    const headers: Record<string, string> = page.nextCursor ? { Link: nextLink(req.originalUrl, page.nextCursor) } : {};
    return { body: page.items, headers };
  },
});

export const inzageRoutes = [listVerwerkingen];
