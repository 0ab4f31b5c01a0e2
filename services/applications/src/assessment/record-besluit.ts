import type { Identity } from '@register/authz';
import { applications } from '@register/contracts';
import { DomainError, NotFoundError, validationError } from '@register/problem';
import { currentCorrelationId, enqueue, recordProcessingIn } from '@register/service-kit';
import { oweBesluit } from '../case-mirror/case-mirror.repository';
import { toStatus } from '../cases/application-views';
import { findById, type ApplicationRow } from '../applications/application-reads';
import type { Context } from '../context';
import { markDecided } from './assessment.repository';
import { BESLUITEN, type RecordBesluitRequest, type RecordBesluitResponse } from './assessment.schemas';
import { canBesluiten } from './beoordeling';

/** ADR 0008: afwijzen and buiten-behandeling need a non-blank toelichting. */
function checkToelichting(req: RecordBesluitRequest): void {
  if (req.besluit !== 'toekennen' && (req.toelichting ?? '').trim() === '') {
    throw validationError([
      { field: 'toelichting', code: 'required', detail: 'afwijzen and buiten-behandeling need a toelichting.' },
    ]);
  }
}

/** The besluit, application.decided and (mirroring on) the owed besluit status commit together; 409 unless the case is still Ingediend. */
export async function recordBesluit(
  ctx: Context,
  identity: Identity | null,
  found: ApplicationRow,
  req: RecordBesluitRequest,
): Promise<RecordBesluitResponse> {
  checkToelichting(req);
  const row = await ctx.db.transaction().execute(async (trx) => {
    const locked = await findById(trx, found.id, true);
    if (!locked) throw new NotFoundError('case');
    if (!canBesluiten(identity, locked.status_tag))
      throw new DomainError('conflict', 'A besluit can only be recorded on an Ingediend application.');
    const now = ctx.clock.now();
    const decided = await markDecided(trx, locked.id, {
      tag: BESLUITEN[req.besluit],
      besluit: req.besluit,
      toelichting: req.toelichting ?? null,
      now,
    });
    await enqueue(
      trx,
      applications.events.decided,
      {
        applicationId: decided.id,
        referentie: decided.referentie,
        type: decided.type as 'intake' | 'herregistratie',
        besluit: req.besluit,
        status: decided.status_tag,
        decidedAt: now.toISOString(),
      },
      currentCorrelationId(),
    );
    // ADR 0011: the besluit status is the mirror's, after this commit; the JWT names the case handler.
    if (ctx.mirror && decided.referentie) {
      await oweBesluit(trx, {
        referentie: decided.referentie,
        applicationId: decided.id,
        by: identity?.caseHandler?.medewerker ?? 'onbekend',
        correlationId: currentCorrelationId(),
      });
    }
    // The case handler's besluit is a processing of the owner's data (ADR 0182), logged with it or not at all.
    await recordProcessingIn(trx, locked.owner);
    return decided;
  });
  return { status: toStatus(row) };
}
