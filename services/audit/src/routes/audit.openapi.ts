import { z } from 'zod';
import { OpenAPIRegistry, generateOpenApi, json, problem } from '@register/service-kit';
import { AuditListQuery, AuthzAudit } from './audit.schemas';

export function auditOpenApi(): object {
  const r = new OpenAPIRegistry();
  r.registerPath({
    method: 'get',
    path: '/api/v1/admin/audit',
    tags: ['audit'],
    description: 'Newest first. When more rows remain, `Link: <…>; rel="next"` points at the next page.',
    request: { query: AuditListQuery },
    responses: { 200: json(z.array(AuthzAudit)), 400: problem('Invalid limit, cursor or filter'), 403: problem('Forbidden') },
  });
  return generateOpenApi(r, 'Audit service');
}
