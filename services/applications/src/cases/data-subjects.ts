import { concerns } from '@register/service-kit';
import type { ApplicationSummary } from './application.schemas';
import { isApplicationId, type Db } from './applications.repository';

/**
 * Names the owners of the listed cases as the data subjects of the running request (ADR 0182): a case handler's
 * or an operator's look at a list of cases is a processing of each listed practitioner's data. A case is found by
 * its application id (the local listing) or its referentie (the zaaksysteem's listing, whose ids are zaak ids).
 */
export async function concernsCases(db: Db, cases: readonly ApplicationSummary[]): Promise<void> {
  const ids = [...new Set(cases.map((c) => c.id))].filter((id): id is string => id !== null && isApplicationId(id));
  const referenties = [...new Set(cases.map((c) => c.status.referentie))].filter((r): r is string => r !== null);
  if (ids.length === 0 && referenties.length === 0) return;
  const rows = await db
    .selectFrom('applications')
    .select('owner')
    .where((eb) =>
      eb.or([
        ...(ids.length > 0 ? [eb('id', 'in', ids)] : []),
        ...(referenties.length > 0 ? [eb('referentie', 'in', referenties)] : []),
      ]),
    )
    .execute();
  concerns(...rows.map((r) => r.owner));
}
