import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { DomainError, NotFoundError, validationError } from '@register/problem';
import type { Logger } from '@register/service-kit';
import type { DocumentsPort } from '../adapters/documents-client';
import type { AppDatabase } from '../data-access/database';
import * as repo from '../data-access/applications.repository';
import type { Clock } from './clock';
import type { CaseSource } from './case-source';
import type { DocumentLinker } from './document-linker';
import { herregistratieFor, type PersonDeps } from './person-views';
import { APPLICATION_TYPES, type ApplicationType } from './submit-rules';
import { toDetail, type ApplicationDetail } from './views';

export interface ApplicationsDeps {
  db: Kysely<AppDatabase>;
  documents: DocumentsPort;
  linker: DocumentLinker;
  cases: CaseSource;
  person: PersonDeps;
  clock: Clock;
  logger: Logger;
  scholingThreshold: number;
}

export const MAX_DRAFT_BYTES = 256 * 1024;

export function parseType(value: unknown): ApplicationType {
  if (typeof value === 'string' && (APPLICATION_TYPES as readonly string[]).includes(value)) return value as ApplicationType;
  throw validationError([{ field: 'type', code: 'invalid-value', detail: 'type must be intake or herregistratie.' }]);
}

const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === '23505';

/** decisions §5: one Concept per type; a herregistratie only when the dashboard says eligible. */
export async function createApplication(deps: ApplicationsDeps, owner: string, rawType: unknown): Promise<ApplicationDetail> {
  const type = parseType(rawType);
  if (type === 'herregistratie') {
    const { decisions } = await herregistratieFor(deps.person, owner);
    if (!decisions.eligibleForHerregistratie) throw new DomainError('conflict', `No herregistratie possible now: ${decisions.herregistratieReason}.`);
  }
  try {
    // The partial unique index holds the one-Concept rule even when two creates race.
    const row = await repo.insertApplication(deps.db, { id: randomUUID(), owner, type, now: deps.clock.now() });
    return toDetail(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw new DomainError('conflict', `There is already a ${type} application in Concept.`);
    throw err;
  }
}

export async function getApplication(deps: ApplicationsDeps, owner: string, id: string): Promise<ApplicationDetail> {
  const row = await repo.findOwned(deps.db, owner, id);
  if (!row) throw new NotFoundError('application');
  return toDetail(row);
}

export interface DraftSync {
  draft: unknown;
  stepIndex: number;
  stepCount: number;
  documentIds: string[] | null;
}

/** 404, then the 400 rules, then 409 (decisions §2 order). */
export async function syncDraft(deps: ApplicationsDeps, owner: string, id: string, parse: () => DraftSync): Promise<void> {
  const existing = await repo.findOwned(deps.db, owner, id);
  if (!existing) throw new NotFoundError('application');
  const body = parse();
  const errors = [];
  if (body.stepCount < 1) errors.push({ field: 'stepCount', code: 'too-small', detail: 'stepCount must be at least 1.' });
  if (body.stepIndex < 0) errors.push({ field: 'stepIndex', code: 'too-small', detail: 'stepIndex must be at least 0.' });
  else if (body.stepIndex >= body.stepCount) errors.push({ field: 'stepIndex', code: 'too-big', detail: 'stepIndex must be below stepCount.' });
  if (Buffer.byteLength(JSON.stringify(body.draft ?? null), 'utf8') > MAX_DRAFT_BYTES) {
    errors.push({ field: 'draft', code: 'too-big', detail: 'The serialized draft exceeds 256 KiB.' });
  }
  if (errors.length > 0) throw validationError(errors);
  await deps.db.transaction().execute(async (trx) => {
    const row = await repo.findById(trx, id, true);
    if (!row) throw new NotFoundError('application');
    if (row.status_tag !== 'Concept') throw new DomainError('conflict', 'Only a Concept application can be edited.');
    await repo.updateDraft(trx, id, { ...body, now: deps.clock.now() });
  });
}

export async function deleteApplication(deps: ApplicationsDeps, owner: string, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const row = await repo.findOwned(trx, owner, id);
    if (!row) throw new NotFoundError('application');
    const locked = await repo.findById(trx, id, true);
    if (locked?.status_tag !== 'Concept') throw new DomainError('conflict', 'Only a Concept application can be deleted.');
    await repo.deleteApplication(trx, id);
  });
}
