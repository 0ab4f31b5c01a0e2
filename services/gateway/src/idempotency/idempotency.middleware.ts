import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Kysely } from 'kysely';
import type { Identity } from '@register/authz';
import { DomainError } from '@register/problem';
import type { Logger } from '@register/service-kit';
import type { Request, Response } from 'express';
import type { GatewayDb } from '../database';
import { requestSlot } from '../request-slot';
import { claim, complete, release, type RecordKey } from './idempotency.repository';
import { callerHash, idempotencyKeyOf, keepsAnswer, repeatOutcome, targetOf } from './idempotency-rules';

/** The one per-request state of a write that carries an Idempotency-Key and owns its claim. */
export interface IdempotencyState {
  key: RecordKey;
  /** SHA-256 of the whole raw body, set once the body has ended (see hashWhileStreaming). */
  requestHash?: string;
  /** Set once the claim was kept or released; the first of the two wins. */
  settled: boolean;
}

const states = requestSlot<IdempotencyState>('idempotency claim');

/** The state of a request that owns an idempotency claim; undefined for every other request. */
export function idempotencyOf(req: IncomingMessage): IdempotencyState | undefined {
  return states.get(req);
}

/** Marks the request as the owner of a claim (the proxy then keeps its answer). */
export function trackIdempotency(req: IncomingMessage, state: IdempotencyState): void {
  states.set(req, state);
}

function hashBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    req.on('data', (chunk: Buffer) => hash.update(chunk));
    req.on('end', () => resolve(hash.digest('hex')));
    req.on('error', reject);
  });
}

/**
 * SHA-256 of the raw body (ADR 0013), computed as the bytes pass to the service. Called on the paused
 * request before the proxy gets it, so no chunk can pass unseen: the proxy pipes the body at once, even when
 * the request waits for a free connection to the service. The hash is only read once the body has ended.
 */
export function hashWhileStreaming(req: IncomingMessage, res: ServerResponse, state: IdempotencyState): void {
  const hash = createHash('sha256');
  const onData = (chunk: Buffer) => hash.update(chunk);
  const onEnd = () => (state.requestHash = hash.digest('hex'));
  req.pause();
  req.on('data', onData);
  req.once('end', onEnd);
  res.once('close', () => {
    req.off('data', onData);
    req.off('end', onEnd);
  });
}

/**
 * ADR 0013. The first completed response (< 500) for (caller, method, target, key) is kept 24 h and
 * replayed for the same body; another body is 422; a repeat while the first runs is 409.
 */
export class Idempotency {
  constructor(
    private readonly db: Kysely<GatewayDb>,
    private readonly logger: Logger,
    private readonly ttlMs = 24 * 3600_000,
    private readonly lockMs = 5 * 60_000,
  ) {}

  /** Returns true when the request must go on to the service; false when it was answered here (a replay). */
  async begin(req: Request, res: Response, identity: Identity | null, now: Date): Promise<boolean> {
    let value: string | null;
    try {
      value = idempotencyKeyOf(req.method, req.headers['idempotency-key']);
    } catch (err) {
      req.resume();
      throw err;
    }
    if (value === null) return true;
    const key: RecordKey = {
      caller_hash: callerHash(identity),
      method: req.method,
      path: targetOf(req.originalUrl),
      idempotency_key: value,
    };
    const existing = await claim(this.db, key, this.lockMs, this.ttlMs, now);
    if (!existing) {
      const state: IdempotencyState = { key, settled: false };
      trackIdempotency(req, state);
      // A client that goes away before the answer leaves no claim behind.
      res.on('close', () => {
        if (!state.settled) void this.fail(state);
      });
      return true;
    }
    if (existing.state === 'running') req.resume();
    const outcome = repeatOutcome(existing, existing.state === 'running' ? '' : await hashBody(req));
    if (outcome === 'in-progress')
      throw new DomainError('idempotency-request-in-progress', 'A request with this Idempotency-Key is still running.');
    if (outcome === 'reused')
      throw new DomainError('idempotency-key-reused', 'This Idempotency-Key was used with another request body.');
    res.status(existing.status ?? 200).setHeader('Idempotent-Replayed', 'true');
    if (existing.content_type) res.setHeader('Content-Type', existing.content_type);
    if (existing.location) res.setHeader('Location', existing.location);
    res.end(existing.body ?? undefined);
    return false;
  }

  /** Keeps the service's answer (below 500, whole body hashed); otherwise releases the key for a retry. */
  async respond(state: IdempotencyState, status: number, headers: IncomingHttpHeaders, body: Buffer): Promise<void> {
    state.settled = true;
    try {
      const requestHash = state.requestHash;
      if (!keepsAnswer(status, requestHash)) return await release(this.db, state.key);
      await complete(this.db, state.key, {
        request_hash: requestHash,
        status,
        content_type: headers['content-type'] ?? null,
        location: typeof headers.location === 'string' ? headers.location : null,
        body,
      });
    } catch (err) {
      this.logger.error({ err }, 'could not keep the idempotent response');
    }
  }

  async fail(state: IdempotencyState): Promise<void> {
    state.settled = true;
    await release(this.db, state.key).catch((err: unknown) =>
      this.logger.error({ err }, 'could not release an idempotency key'),
    );
  }
}
