import type { Kysely } from 'kysely';
import { auditRole, type Identity } from '@register/authz';
import { NotFoundError } from '@register/problem';
import { SUBJECTS, enqueueEvent, type AuditEventData } from '@register/service-kit';
import { findFlag, listFlags, updateFlag, type FlagRow } from '../data-access/flags.repository';
import type { ReferenceDb } from '../data-access/reference.tables';

export async function getFlags(db: Kysely<ReferenceDb>): Promise<FlagRow[]> {
  return listFlags(db);
}

export async function requireFlag(db: Kysely<ReferenceDb>, key: string): Promise<FlagRow> {
  const flag = await findFlag(db, key);
  if (!flag) throw new NotFoundError('flag');
  return flag;
}

/** Sets a flag; the audit row and the flag-changed event commit with the change or not at all. */
export async function setFlag(db: Kysely<ReferenceDb>, identity: Identity, key: string, enabled: boolean, correlationId: string | null): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (!(await updateFlag(trx, key, enabled))) throw new NotFoundError('flag');
    const audit: AuditEventData = { action: 'flag:set', resource: `flag/${key}`, decision: 'allow', role: auditRole(identity) };
    await enqueueEvent(trx, SUBJECTS.audit('reference'), 'audit', { ...audit }, correlationId);
    await enqueueEvent(trx, SUBJECTS.flagsChanged, 'flag-changed', { key, enabled }, correlationId);
  });
}
