import { concerns } from '@register/service-kit';
import type { ApplicationSummary } from './application.schemas';
import type { Context } from '../context';
import { ownersOf } from './cases.repository';

/**
 * Names the owners of the listed cases as the data subjects of the running request (ADR 0182): a case handler's
 * or an operator's look at a list of cases is a processing of each listed practitioner's data. A case is found by
 * its application id (the local listing) or its referentie (the zaaksysteem's listing, whose ids are zaak ids).
 */
export async function concernsCases(ctx: Context, cases: readonly ApplicationSummary[]): Promise<void> {
  const ids = [...new Set(cases.map((c) => c.id))].filter((id): id is string => id !== null);
  const referenties = [...new Set(cases.map((c) => c.status.referentie))].filter((r): r is string => r !== null);
  concerns(...(await ownersOf(ctx.db, ids, referenties)));
}
