import { Router } from 'express';
import type { z } from 'zod';
import { mountRoute } from '@register/authz';
import { nextLink } from '@register/service-kit';
import type { AuditRow } from '../data-access/audit.repository';
import { readAuditTrail } from '../domain/audit-trail';
import { AuditListQuery, AuthzAudit } from './audit.schemas';
import type { Deps } from '../app';

function toAuthzAudit(row: AuditRow): z.infer<typeof AuthzAudit> {
  return { at: row.at.toISOString(), action: row.action, resource: row.resource, decision: row.decision, role: row.role, correlationId: row.correlation_id };
}

export function auditRouter(deps: Deps): Router {
  const router = Router();
  mountRoute(router, 'audit', 'GET', '/api/v1/admin/audit', async (req, res) => {
    const query = AuditListQuery.parse(req.query);
    const page = await readAuditTrail(deps.db, query);
    if (page.nextCursor) res.setHeader('Link', nextLink(req.originalUrl, page.nextCursor));
    res.json(page.rows.map(toAuthzAudit));
  });
  return router;
}
