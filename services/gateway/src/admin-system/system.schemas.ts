import { z } from 'zod';

const Status = z.enum(['ok', 'unavailable', 'not-configured']);

export const SystemStatus = z
  .strictObject({
    services: z.array(
      z.strictObject({
        name: z.string().meta({ example: 'applications' }),
        ready: z.boolean(),
        checks: z
          .record(z.string(), z.boolean())
          .meta({ description: "The service's readiness checks (database, events, consumer …)" }),
      }),
    ),
    dependencies: z.array(
      z.strictObject({
        name: z.enum(['postgresql', 'nats', 's3', 'zaaksysteem', 'identity-provider']),
        status: Status,
      }),
    ),
    breakers: z.array(
      z.strictObject({
        upstream: z.string().meta({ example: 'documents' }),
        state: z.enum(['closed', 'open']).meta({ description: '`open`: the gateway answers 503 at once' }),
      }),
    ),
    caseMirror: z
      .strictObject({
        enabled: z.boolean(),
        backlog: z.number().int().meta({ description: 'Cases with mirror work owed' }),
        diverged: z.number().int(),
        pastWindow: z.number().int(),
      })
      .nullable()
      .meta({ description: 'Null while the applications service does not answer' }),
    consumers: z.array(
      z.strictObject({
        name: z.string().meta({ example: 'audit' }),
        pending: z.number().int().meta({ description: 'Events not yet handled (pending and unacknowledged)' }),
      }),
    ),
  })
  .meta({ id: 'SystemStatus' });
export type SystemStatus = z.infer<typeof SystemStatus>;
