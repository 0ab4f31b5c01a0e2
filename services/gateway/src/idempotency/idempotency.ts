import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';
import type { Kysely } from 'kysely';
import type { Identity } from '@register/authz';
import { DomainError, instanceOf } from '@register/problem';
import type { Logger } from '@register/service-kit';
import type { GatewayDb } from '../data-access/gateway.tables';
import { claim, complete, release, type RecordKey } from '../data-access/idempotency.repository';

export const IDEMPOTENT_METHODS = new Set(['POST', 'PUT', 'DELETE']);

export interface IdempotencyState {
  key: RecordKey;
  /** SHA-256 of the whole raw body, set by the proxy once the body has ended. */
  requestHash?: string;
  settled: boolean;
}

/** Scope of a key without keeping who the caller is: a hash of the identity. */
function callerHash(identity: Identity | null): string {
  const parts = [identity?.practitioner?.subject ?? '', identity?.caseHandler?.medewerker ?? ''];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
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
 * decisions §13. The first completed response (< 500) for (caller, method, path, key) is kept 24 h and
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
  async begin(req: Request, res: Response, identity: Identity | null): Promise<boolean> {
    const header = req.headers['idempotency-key'];
    if (!IDEMPOTENT_METHODS.has(req.method) || header === undefined) return true;
    const value = Array.isArray(header) ? header.join(',') : header;
    if (value.length < 1 || value.length > 255) {
      req.resume();
      throw new DomainError('validation', 'Idempotency-Key must be 1 to 255 characters.', [{ field: 'Idempotency-Key', code: 'too_long', detail: 'Idempotency-Key must be 1 to 255 characters.' }]);
    }
    const key: RecordKey = { caller_hash: callerHash(identity), method: req.method, path: instanceOf(req), idempotency_key: value };
    const existing = await claim(this.db, key, this.lockMs, this.ttlMs);
    if (!existing) {
      const state: IdempotencyState = { key, settled: false };
      res.locals['idempotency'] = state;
      // A client that goes away before the answer leaves no claim behind.
      res.on('close', () => {
        if (!state.settled) void this.fail(state);
      });
      return true;
    }
    if (existing.state === 'running') {
      req.resume();
      throw new DomainError('idempotency-request-in-progress', 'A request with this Idempotency-Key is still running.');
    }
    if ((await hashBody(req)) !== existing.request_hash) {
      throw new DomainError('idempotency-key-reused', 'This Idempotency-Key was used with another request body.');
    }
    res.status(existing.status ?? 200).setHeader('Idempotent-Replayed', 'true');
    if (existing.content_type) res.setHeader('Content-Type', existing.content_type);
    if (existing.location) res.setHeader('Location', existing.location);
    res.end(existing.body ?? undefined);
    return false;
  }

  async respond(state: IdempotencyState, status: number, headers: IncomingHttpHeaders, body: Buffer): Promise<void> {
    state.settled = true;
    try {
      if (status >= 500 || state.requestHash === undefined) return await release(this.db, state.key);
      await complete(this.db, state.key, {
        request_hash: state.requestHash,
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
    await release(this.db, state.key).catch((err: unknown) => this.logger.error({ err }, 'could not release an idempotency key'));
  }
}
