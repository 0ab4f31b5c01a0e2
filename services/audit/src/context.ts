import { z } from 'zod';
import type { Kysely } from 'kysely';
import {
  baseConfigSchema,
  countDeadLetters,
  systemClock,
  type Built,
  type Clock,
  type Logger,
  type ServiceEvents,
  type ServiceResources,
} from '@register/service-kit';
import type { AuditDb } from './database';

export const configSchema = baseConfigSchema.extend({
  PORT: baseConfigSchema.shape.PORT.default(8085),
  AUDIT_CONSUMER: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'a durable consumer name')
    .default('audit')
    .describe('Durable consumer name of the audit log; one per deployment (each test system uses its own).'),
});
export type Config = typeof configSchema._output;

/**
 * How soon the consumer retries a failed insert (a redelivery) and pulls again after losing its stream; the kit's
 * defaults unless set.
 */
export interface Redelivery {
  retryDelayMs?: number;
  restartDelayMs?: number;
}

/** Everything the audit service's routes and jobs use. */
export interface Context {
  config: Config;
  logger: Logger;
  clock: Clock;
  db: Kysely<AuditDb>;
  events: ServiceEvents;
  redelivery: Redelivery;
}

export function buildContext(config: Config, { logger, database, events }: ServiceResources<AuditDb>): Built<Context> {
  return {
    context: { config, logger, clock: systemClock, db: database.db, events, redelivery: {} },
    ...(events.transport === 'nats'
      ? {
          metrics: {
            event_dead_letters: {
              help: 'Dead letters in the stream by the durable consumer that gave up on them (any: an alert).',
              read: () => countDeadLetters(events),
              label: 'durable',
            },
          },
        }
      : {}),
  };
}
