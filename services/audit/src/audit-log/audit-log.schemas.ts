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

/** ADR 0012: the decisions an audit row records. */
export const AUDIT_DECISIONS = ['allow', 'deny', 'flagged', 'accepted'] as const;

/** A timestamp as ADR 0003 writes them (RFC 3339; an offset is accepted and read as that instant). */
const instant = z.iso
  .datetime({ offset: true })
  .refine((at) => !at.startsWith('0000'), 'year 0000 is no date')
  .transform((at) => new Date(at));

/**
 * ADR 0014 paging plus the filters, all combinable; `from` inclusive, `to` exclusive. A failing parameter
 * is named by itself in `errors[].field` (`limit`, `decision`, `from`).
 */
export const AuditListQuery = pageQuery
  .extend({
    action: z.string().min(1).max(200).optional(),
    correlationId: z.string().min(1).max(128).optional(),
    decision: z.enum(AUDIT_DECISIONS).optional(),
    from: instant.optional(),
    to: instant.optional(),
  })
  .refine((q) => !q.from || !q.to || q.from.getTime() <= q.to.getTime(), {
    path: ['to'],
    message: '`to` must not be before `from`',
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
  decision: z
    .any()
    .optional()
    .meta({ type: 'string', enum: [...AUDIT_DECISIONS], description: 'Only rows with this decision', example: 'deny' }),
  from: z.any().optional().meta({
    type: 'string',
    format: 'date-time',
    description: 'Only rows at or after this instant (inclusive)',
    example: '2026-11-22T09:30:00.000Z',
  }),
  to: z.any().optional().meta({
    type: 'string',
    format: 'date-time',
    description: 'Only rows before this instant (exclusive); not before `from`',
    example: '2026-11-23T09:30:00.000Z',
  }),
});
