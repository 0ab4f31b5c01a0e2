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
     * status: the answer is `status` in Open Zaak's error format, and nothing happens.
     */
    mode: z.enum(['refuse', 'reset', 'delay', 'status']),
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

export class FaultRegistry {
  private readonly active: ActiveFault[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  add(input: FaultSpec): Fault {
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

  remove(id: string): boolean {
    const index = this.active.findIndex((entry) => entry.fault.id === id);
    if (index >= 0) this.active.splice(index, 1);
    return index >= 0;
  }

  clear(): void {
    this.active.length = 0;
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
