import type { ApplicationDetail, ApplicationStatus, ApplicationSummary } from './application.schemas';
import type { ApplicationRow } from '../applications/application-reads';
import type { ListRow } from './cases.repository';
import { mask } from './mask';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export function toStatus(
  row: Pick<ApplicationRow, 'status_tag' | 'step_index' | 'step_count' | 'referentie' | 'manual' | 'reden'>,
): ApplicationStatus {
  return {
    tag: row.status_tag,
    stepIndex: row.step_index,
    stepCount: row.step_count,
    referentie: row.referentie,
    manual: row.manual,
    reden: row.reden,
  };
}

/** The owner is shown as-is in the practitioner's own list and masked everywhere a case handler looks. */
export function toSummary(row: ApplicationRow, owner: 'plain' | 'masked'): ApplicationSummary {
  return summary(row, row.created_at.toISOString(), row.updated_at.toISOString(), iso(row.submitted_at), owner);
}

/** The same summary from a list row, whose timestamps the query already formatted. */
export function toListSummary(row: ListRow, owner: 'plain' | 'masked'): ApplicationSummary {
  return summary(row, row.created_iso, row.updated_iso, row.submitted_iso, owner);
}

function summary(
  row: ListRow | ApplicationRow,
  createdAt: string,
  updatedAt: string,
  submittedAt: string | null,
  owner: 'plain' | 'masked',
): ApplicationSummary {
  return {
    id: row.id,
    type: row.type,
    status: toStatus(row),
    documentIds: row.document_ids,
    createdAt,
    updatedAt,
    submittedAt,
    owner: owner === 'plain' ? row.owner : mask(row.owner),
  };
}

export function toDetail(row: ApplicationRow): ApplicationDetail {
  return {
    id: row.id,
    type: row.type,
    status: toStatus(row),
    draft: row.draft ?? null,
    documentIds: row.document_ids,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    submittedAt: iso(row.submitted_at),
  };
}
