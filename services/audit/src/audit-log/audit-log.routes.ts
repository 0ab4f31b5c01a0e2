import { z } from 'zod';
import { audit } from '@register/contracts';
import { validationError, zodIssuesToFieldErrors } from '@register/problem';
import { defineOperation, nextLink } from '@register/service-kit';
import type { Context } from '../context';
import type { AuditRow } from './audit-log.repository';
import { AuditListParams, AuditListQuery, AuthzAudit } from './audit-log.schemas';
import { readAuditTrail } from './read-audit-trail';

function toAuthzAudit(row: AuditRow): AuthzAudit {
  return {
    at: row.at.toISOString(),
    action: row.action,
    resource: row.resource,
    decision: row.decision,
    role: row.role,
    correlationId: row.correlation_id,
  };
}

function parseQuery(raw: unknown): AuditListQuery {
  const parsed = AuditListQuery.safeParse(raw);
  if (!parsed.success) throw validationError(zodIssuesToFieldErrors(parsed.error));
  return parsed.data;
}

const listAuditTrail = defineOperation({
  rule: audit.routes.auditLog,
  operationId: 'listAuditTrail',
  summary: 'Read the authorization audit trail',
  description:
    'Every audit row of every service, newest first (reveal attempts, denials, admin deletes, ' +
    'flag changes, divergences, accepted notifications). When more rows remain, `Link: <…>; ' +
    'rel="next"` points at the next page. Filter by `action`, `correlationId`, `decision` and the time range ' +
    '`from` (inclusive) to `to` (exclusive), in any combination; a bad value is a 400 naming the parameter.',
  query: AuditListParams,
  responses: { 200: z.array(AuthzAudit) },
  handle: async (ctx: Context, { query, req }) => {
    const page = await readAuditTrail(ctx, parseQuery(query));
    const headers: Record<string, string> = page.nextCursor ? { Link: nextLink(req.originalUrl, page.nextCursor) } : {};
    return { body: page.rows.map(toAuthzAudit), headers };
  },
});

export const auditLogRoutes = [listAuditTrail];
