import type { Kysely } from 'kysely';
import { auditRole, type Identity } from '@register/authz';
import { auditEvent, letters } from '@register/contracts';
import { DomainError, NotFoundError, validationError, zodIssuesToFieldErrors } from '@register/problem';
import { concerns, enqueue } from '@register/service-kit';
import { evaluateBrief } from '../briefs/brief-rules';
import { callerOf } from '../briefs/brief-view';
import { findBrief } from '../briefs/briefs.repository';
import { BriefQuery } from '../briefs/briefs.schemas';
import type { Context } from '../context';
import type { LettersDb } from '../database';

async function audit(
  db: Kysely<LettersDb>,
  identity: Identity | null,
  resource: string,
  decision: 'allow' | 'deny',
  correlationId: string | null,
): Promise<void> {
  await enqueue(
    db,
    auditEvent('letters'),
    { action: letters.auditActions.reveal, resource, decision, role: auditRole(identity) },
    correlationId,
  );
}

/**
 * ADR 0010: the unmasked register number of a letter's case, for a caller with `canRevealRegisterNummer`
 * who sent `X-Step-Up: true` (403 `step-up-required` without it). Every attempt that reaches the service writes
 * exactly one audit row, allowed or denied (a malformed `referentie`, 400, is a denied attempt too), naming the
 * letter, never the number or the person. (A missing capability is refused, and audited, at the gateway already.)
 */
export async function revealRegisterNummer(
  ctx: Context,
  identity: Identity | null,
  referentie: unknown,
  stepUp: boolean,
  correlationId: string | null,
): Promise<{ registerNummer: string | null }> {
  const caller = callerOf(identity);
  if (evaluateBrief('concept', caller.capabilities, caller.id, null).verdicts.reveal !== 'allow') {
    await audit(ctx.db, identity, letters.routes.revealRegisterNummer.path, 'deny', correlationId);
    throw new DomainError('forbidden', 'Only a drafter may reveal the register number.');
  }
  if (!stepUp) {
    await audit(ctx.db, identity, letters.routes.revealRegisterNummer.path, 'deny', correlationId);
    throw new DomainError('step-up-required', 'Send X-Step-Up: true after the user confirmed the reveal.');
  }
  const query = BriefQuery.safeParse({ referentie });
  if (!query.success) {
    await audit(ctx.db, identity, letters.routes.revealRegisterNummer.path, 'deny', correlationId);
    throw validationError(zodIssuesToFieldErrors(query.error), 'The request query is invalid.');
  }
  const brief = await findBrief(ctx.db, { referentie: query.data.referentie ?? null });
  if (!brief) {
    await audit(ctx.db, identity, letters.routes.revealRegisterNummer.path, 'deny', correlationId);
    throw new NotFoundError('brief');
  }
  await audit(ctx.db, identity, `brief/${brief.briefId}`, 'allow', correlationId);
  concerns(brief.context?.subject);
  return { registerNummer: brief.context?.registerNummer ?? null };
}
