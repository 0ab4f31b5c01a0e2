import { randomUUID } from 'node:crypto';
import { z } from 'zod';

export const faultSpecSchema = z
  .object({
    /** An exact path ("/zaken/api/v1/zaken"), a prefix ending in "*" ("/zaken/api/v1/*"), or "*" for every ZGW path. */
    path: z.string().min(1).max(1000),
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']).optional(),
    /**
     * refuse: the connection is reset before the request is handled (nothing happens);
     * reset: the request is handled (the zaak exists) and the connection is reset instead of the answer: a lost answer;
     * delay: the request is handled after delayMs;
     * hold: the request waits until the test releases it, then it is handled (also when its client has gone);
     * status: the answer is `status` in Open Zaak's error format, and nothing happens.
     */
    mode: z.enum(['refuse', 'reset', 'delay', 'hold', 'status']),
    status: z.number().int().min(400).max(599).optional(),
    delayMs: z.number().int().min(0).max(600_000).optional(),
    /** Applies to the next N matching requests… */
    count: z.number().int().min(1).optional(),
    /** …or for this long; with neither, until it is removed. */
    forMs: z.number().int().min(1).optional(),
  })
  .strict()
  .refine((spec) => spec.mode !== 'delay' || spec.delayMs !== undefined, {
    message: 'mode "delay" needs delayMs',
    path: ['delayMs'],
  })
  .refine((spec) => spec.count === undefined || spec.forMs === undefined, {
    message: 'give count or forMs, not both',
    path: ['forMs'],
  });

export type FaultSpec = z.infer<typeof faultSpecSchema>;

export interface Fault extends FaultSpec {
  id: string;
  /** How often it was applied so far. */
  applied: number;
  expiresAt?: string;
}

interface ActiveFault {
  fault: Fault;
  remaining?: number;
  until?: number;
}

/** A request a `hold` fault is holding. */
export interface HeldRequest {
  faultId: string;
  method: string;
  path: string;
  since: string;
  /** Its client closed the connection while it was held (it gave up waiting). */
  clientGone: boolean;
}

interface Holding {
  request: HeldRequest;
  release(): void;
}

export class FaultRegistry {
  private readonly active: ActiveFault[] = [];
  private readonly holding: Holding[] = [];
  private readonly heldListeners = new Set<() => void>();

  constructor(private readonly now: () => number = Date.now) {}

  add(input: unknown): Fault {
    const spec = faultSpecSchema.parse(input);
    const until = spec.forMs === undefined ? undefined : this.now() + spec.forMs;
    const fault: Fault = {
      ...spec,
      id: randomUUID(),
      applied: 0,
      ...(until === undefined ? {} : { expiresAt: new Date(until).toISOString() }),
    };
    this.active.push({
      fault,
      ...(spec.count === undefined ? {} : { remaining: spec.count }),
      ...(until === undefined ? {} : { until }),
    });
    return fault;
  }

  /** Removes the fault; the requests it holds go on. */
  remove(id: string): boolean {
    const index = this.active.findIndex((entry) => entry.fault.id === id);
    if (index >= 0) this.active.splice(index, 1);
    const released = this.release(id);
    return index >= 0 || released > 0;
  }

  /** Removes every fault; every held request goes on, so that nothing waits after a test. */
  clear(): void {
    this.active.length = 0;
    this.release();
  }

  /**
   * Holds a request of a `hold` fault until `release`: `released` settles then. `clientGone` records that the
   * client closed the connection meanwhile.
   */
  hold(faultId: string, method: string, path: string): { released: Promise<void>; clientGone(): void } {
    const request: HeldRequest = {
      faultId,
      method,
      path,
      since: new Date(this.now()).toISOString(),
      clientGone: false,
    };
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    this.holding.push({ request, release });
    for (const listener of [...this.heldListeners]) listener();
    return { released, clientGone: () => void (request.clientGone = true) };
  }

  /** The requests held now (of one fault, or of all), oldest first. */
  held(faultId?: string): HeldRequest[] {
    return this.holding
      .filter((h) => faultId === undefined || h.request.faultId === faultId)
      .map((h) => ({ ...h.request }));
  }

  /** Lets the requests held now go on (of one fault, or all); returns how many. */
  release(faultId?: string): number {
    let released = 0;
    for (let i = this.holding.length - 1; i >= 0; i -= 1) {
      const h = this.holding[i]!;
      if (faultId !== undefined && h.request.faultId !== faultId) continue;
      this.holding.splice(i, 1);
      h.release();
      released += 1;
    }
    return released;
  }

  /** Resolves once at least `count` requests are held by the fault (at once when they are). */
  waitForHeld(faultId: string, count = 1, timeoutMs = 10_000): Promise<HeldRequest[]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const held = this.held(faultId);
        if (held.length < count) return false;
        this.heldListeners.delete(check);
        clearTimeout(timer);
        resolve(held);
        return true;
      };
      const timer = setTimeout(() => {
        this.heldListeners.delete(check);
        reject(new Error(`fewer than ${count} requests held by fault ${faultId} within ${timeoutMs} ms`));
      }, timeoutMs);
      if (!check()) this.heldListeners.add(check);
    });
  }

  /** Whether the fault is still active (not used up, expired or removed). */
  has(id: string): boolean {
    this.expire();
    return this.active.some((entry) => entry.fault.id === id);
  }

  list(): Fault[] {
    this.expire();
    return this.active.map((entry) => ({ ...entry.fault }));
  }

  /** The first fault that matches the request, used up by one; the oldest fault wins. */
  take(method: string, path: string): Fault | undefined {
    this.expire();
    const entry = this.active.find((candidate) => matches(candidate.fault, method, path));
    if (!entry) return undefined;
    entry.fault.applied += 1;
    if (entry.remaining !== undefined) {
      entry.remaining -= 1;
      if (entry.remaining === 0) this.active.splice(this.active.indexOf(entry), 1);
    }
    return { ...entry.fault };
  }

  private expire(): void {
    const now = this.now();
    for (let i = this.active.length - 1; i >= 0; i -= 1) {
      const until = this.active[i]?.until;
      if (until !== undefined && until <= now) this.active.splice(i, 1);
    }
  }
}

function matches(fault: FaultSpec, method: string, path: string): boolean {
  if (fault.method !== undefined && fault.method !== method) return false;
  if (fault.path === '*') return true;
  if (fault.path.endsWith('*')) return path.startsWith(fault.path.slice(0, -1));
  return path === fault.path || path === `${fault.path}/`;
}
