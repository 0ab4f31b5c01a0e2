import { z } from 'zod';
import { pageQuery } from '@register/service-kit';

export const AuthzAudit = z
  .strictObject({
    at: z.string().nullable().meta({ description: 'RFC 3339 UTC with milliseconds', format: 'date-time' }),
    action: z.string().nullable(),
    resource: z.string().nullable(),
    decision: z.string().nullable(),
    role: z.string().nullable(),
    correlationId: z.string().nullable(),
  })
  .meta({ id: 'AuthzAudit' });
export type AuthzAudit = z.infer<typeof AuthzAudit>;

/** ADR 0014 paging plus two filters. A failing parameter is named by itself in `errors[].field` (`limit`). */
export const AuditListQuery = pageQuery.extend({
  action: z.string().min(1).max(200).optional(),
  correlationId: z.string().min(1).max(128).optional(),
});
export type AuditListQuery = z.output<typeof AuditListQuery>;

/**
 * The same parameters as the description shows them. The operation leaves them unchecked because the kit
 * would name a failing one `query.limit`; the route parses them with AuditListQuery instead (once).
 */
export const AuditListParams = z.object({
  limit: z.any().optional().meta({
    type: 'integer',
    minimum: 1,
    maximum: 1000,
    description: 'Rows per page; without it at most 1000',
    example: 50,
  }),
  cursor: z.any().optional().meta({
    type: 'string',
    maxLength: 500,
    description: 'The position the `Link: rel="next"` of the page before carries',
  }),
  action: z.any().optional().meta({
    type: 'string',
    minLength: 1,
    maxLength: 200,
    description: 'Only rows with this action',
    example: 'flag:set',
  }),
  correlationId: z
    .any()
    .optional()
    .meta({ type: 'string', minLength: 1, maxLength: 128, description: 'Only rows of this correlation id' }),
});
