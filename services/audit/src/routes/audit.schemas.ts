import { z } from 'zod';
import { pageQuery } from '@register/service-kit';

export const AuthzAudit = z
  .strictObject({
    at: z.string().nullable().meta({ description: 'RFC 3339 UTC with milliseconds' }),
    action: z.string().nullable(),
    resource: z.string().nullable(),
    decision: z.string().nullable(),
    role: z.string().nullable(),
    correlationId: z.string().nullable(),
  })
  .meta({ id: 'AuthzAudit' });

export const AuditListQuery = pageQuery.extend({
  action: z.string().min(1).max(200).optional().meta({ description: 'Only rows with this action' }),
  correlationId: z.string().min(1).max(128).optional().meta({ description: 'Only rows of this correlation id' }),
});
