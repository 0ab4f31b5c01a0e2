import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { auditRole, type Identity } from '@register/authz';
import { audit as auditContract } from '@register/contracts';
import { NotFoundError } from '@register/problem';
import {
  currentCorrelationId,
  decodeCursor,
  discardDeadLetter,
  encodeCursor,
  findDeadLetter,
  listDeadLetters,
  NoDeadLetterError,
  replayDeadLetter,
  type DeadLetterStore,
  type StoredDeadLetter,
} from '@register/service-kit';
import { insertAuditRow } from '../audit-log/audit-log.repository';
import type { Context } from '../context';
import type { DeadLetterListQuery, DeadLetterView } from './dead-letters.schemas';

const MAX_PAGE = 1000;

/** The stream, or null in the single-process mode (its in-process bus keeps no dead letters). */
function storeOf(ctx: Context): DeadLetterStore | null {
  return ctx.events.transport === 'nats' ? ctx.events : null;
}

/** Runs of eight or more digits may be a citizen, register or phone number: an operator never needs them. */
export function withoutPersonalData(text: string): string {
  return text.replace(/\d{8,}/g, (digits) => '*'.repeat(digits.length));
}

function envelopeOf(event: string): { id: string | null; type: string | null; correlationId: string | null } {
  const text = (v: unknown) => (typeof v === 'string' && v.length <= 200 ? v : null);
  try {
    const e = JSON.parse(event) as Record<string, unknown>;
    return { id: text(e['id']), type: text(e['type']), correlationId: text(e['correlationId']) };
  } catch {
    return { id: null, type: null, correlationId: null };
  }
}

export function toView(letter: StoredDeadLetter): DeadLetterView {
  const envelope = envelopeOf(letter.event);
  return {
    id: String(letter.seq),
    consumer: letter.durable,
    subject: letter.subject,
    reason: withoutPersonalData(letter.error),
    failedAt: new Date(letter.failedAt).toISOString(),
    deliveries: letter.deliveries,
    eventId: envelope.id,
    eventType: envelope.type,
    correlationId: envelope.correlationId,
  };
}

/** One page of dead letters, oldest first; the cursor is the last letter's sequence. */
export async function readDeadLetters(
  ctx: Context,
  query: DeadLetterListQuery,
): Promise<{ letters: StoredDeadLetter[]; nextCursor: string | null }> {
  const store = storeOf(ctx);
  if (!store) return { letters: [], nextCursor: null };
  const afterSeq = decodeCursor(query.cursor, z.number().int().min(1)) ?? undefined;
  const limit = query.limit ?? MAX_PAGE;
  const found = await listDeadLetters(store, query.consumer, { limit: limit + 1, ...(afterSeq ? { afterSeq } : {}) });
  const letters = found.slice(0, limit);
  const last = letters[letters.length - 1];
  return { letters, nextCursor: found.length > limit && last ? encodeCursor(last.seq) : null };
}

/** The operator's own audit row (the audit service owns the table: written directly, no event). */
async function audit(ctx: Context, identity: Identity | null, action: string, seq: number): Promise<void> {
  await insertAuditRow(ctx.db, {
    event_id: randomUUID(),
    at: ctx.clock.now(),
    action,
    resource: `dead-letter/${seq}`,
    decision: 'allow',
    role: auditRole(identity) || 'none',
    correlation_id: currentCorrelationId(),
    service: 'audit',
  });
}

/** A dead letter's id is its stream sequence; any other text names none. */
export function seqOf(id: string): number {
  if (!/^[1-9][0-9]{0,14}$/.test(id)) throw new NotFoundError('dead letter');
  return Number(id);
}

/** Publishes the event again for its consumer and removes the letter; an unknown or handled letter is a 404. */
export async function replay(ctx: Context, identity: Identity | null, seq: number): Promise<void> {
  const store = storeOf(ctx);
  if (!store || !(await findDeadLetter(store, seq))) throw new NotFoundError('dead letter');
  // Another replay of the same letter may have removed it since: that one answers for it, this one is a 404.
  await replayDeadLetter(store, seq).catch((err: unknown) => {
    throw err instanceof NoDeadLetterError ? new NotFoundError('dead letter') : err;
  });
  await audit(ctx, identity, auditContract.DEAD_LETTER_ACTIONS.replay, seq);
}

export async function discard(ctx: Context, identity: Identity | null, seq: number): Promise<void> {
  const store = storeOf(ctx);
  if (!store || !(await discardDeadLetter(store, seq))) throw new NotFoundError('dead letter');
  await audit(ctx, identity, auditContract.DEAD_LETTER_ACTIONS.discard, seq);
}
