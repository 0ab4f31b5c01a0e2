import type { Kysely } from 'kysely';
import { seedFlags } from '../data-access/flags.repository';
import { seedTables } from '../data-access/stamdata.repository';
import type { ReferenceDb } from '../data-access/reference.tables';
import { FLAGS_SEED, STAMDATA_SEED } from './stamdata.seed';

export async function seedReference(db: Kysely<ReferenceDb>): Promise<void> {
  await seedTables(db, STAMDATA_SEED);
  await seedFlags(db, FLAGS_SEED);
}
