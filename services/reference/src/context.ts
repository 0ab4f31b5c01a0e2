import type { Kysely } from 'kysely';
import {
  baseConfigSchema,
  systemClock,
  type Built,
  type Clock,
  type Logger,
  type ServiceEvents,
  type ServiceResources,
} from '@register/service-kit';
import type { ReferenceDb } from './database';
import { seedFlags } from './flags/flags.repository';
import { FLAGS_SEED } from './flags/flags.seed';
import { seedTables } from './stamdata/stamdata.repository';
import { STAMDATA_SEED } from './stamdata/stamdata.seed';
import { ReferenceSnapshot } from './snapshot/reference-snapshot';

export const configSchema = baseConfigSchema.extend({ PORT: baseConfigSchema.shape.PORT.default(8084) });
export type Config = typeof configSchema._output;

/** Everything the reference service's routes and jobs use. */
export interface Context {
  config: Config;
  logger: Logger;
  clock: Clock;
  db: Kysely<ReferenceDb>;
  events: ServiceEvents;
  /** Stamdata and flags as served: from memory, refreshed on change. */
  snapshot: ReferenceSnapshot;
}

/** The composition root: the shipped tables and flags are added (never overwritten) at every start. */
export async function buildContext(
  config: Config,
  { logger, database, events }: ServiceResources<ReferenceDb>,
): Promise<Built<Context>> {
  await seedTables(database.db, STAMDATA_SEED);
  await seedFlags(database.db, FLAGS_SEED);
  const snapshot = new ReferenceSnapshot(database.db);
  await snapshot.reload();
  return { context: { config, logger, clock: systemClock, db: database.db, events, snapshot } };
}
