/** Who a ZGW call is made for: the JWT's `user_id` and `user_representation` (ADR 0011). */
export interface ZgwActor {
  userId: string;
  representation: string;
}

/** The submitting practitioner is represented as the self-service portal, never by their subject. */
export const SELF_SERVICE: ZgwActor = { userId: 'self-service', representation: 'self-service' };
/** The service's own calls: reading the catalogue and listing, an admin delete. */
export const SYSTEM: ZgwActor = { userId: 'register', representation: 'register' };

/**
 * One answer of the case system, as the mirror's rules need it: an HTTP answer (its status and its body,
 * `undefined` when the body is not JSON), or `transport` when there was none (refused, reset, DNS, timeout).
 */
export type ZgwAnswer = { kind: 'http'; status: number; body: unknown } | { kind: 'transport'; detail: string };

/**
 * The ZGW APIs (Zaken, Documenten, Catalogi) over HTTP: a fresh JWT per call, the CRS headers on the Zaken
 * API, a timeout. It never retries and never throws for the network: that is the mirror's rule to apply.
 */
export interface ZgwPort {
  call(method: 'GET' | 'POST' | 'DELETE', url: string, actor: ZgwActor, body?: unknown): Promise<ZgwAnswer>;
}
