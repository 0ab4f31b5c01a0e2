import { z } from 'zod';

/** One event a durable consumer gave up on, as an operator sees it: where and why, never the event's data. */
export const DeadLetterView = z
  .strictObject({
    id: z.string().meta({ description: 'The dead letter (its stream sequence)', example: '4711' }),
    consumer: z.string().meta({ description: 'The durable consumer that gave up', example: 'audit' }),
    subject: z.string().meta({ description: 'The event subject', example: 'register.audit.applications' }),
    reason: z
      .string()
      .meta({ description: 'Why the last delivery failed (digit runs that could identify a person masked)' }),
    failedAt: z.string().meta({ format: 'date-time', description: 'RFC 3339 UTC with milliseconds' }),
    deliveries: z.number().int().meta({ description: 'Deliveries before the consumer gave up' }),
    eventId: z.string().nullable().meta({ description: "The event's id, for finding its effects" }),
    eventType: z.string().nullable(),
    correlationId: z
      .string()
      .nullable()
      .meta({ description: 'The correlation id of the request that caused the event' }),
  })
  .meta({ id: 'DeadLetter' });
export type DeadLetterView = z.infer<typeof DeadLetterView>;

export const DeadLetterParams = z.object({
  // Any other text names no dead letter: a bare 404, as for an id that was replayed or discarded.
  id: z.string().meta({ description: 'The dead letter', example: '4711' }),
});

/** ADR 0014 paging, and the consumer to show. A failing parameter is named by itself (`limit`, `consumer`). */
export const DeadLetterListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  cursor: z.string().max(500).optional(),
  consumer: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'a durable consumer name')
    .optional(),
});
export type DeadLetterListQuery = z.output<typeof DeadLetterListQuery>;

/**
 * The parameters as the description shows them; the route parses them with DeadLetterListQuery (field names as sent).
 */
export const DeadLetterListParams = z.object({
  limit: z.any().optional().meta({ type: 'integer', minimum: 1, maximum: 1000, description: 'Letters per page' }),
  cursor: z.any().optional().meta({
    type: 'string',
    maxLength: 500,
    description: 'The position the `Link: rel="next"` of the page before carries',
  }),
  consumer: z
    .any()
    .optional()
    .meta({ type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'Only letters of this durable consumer' }),
});
