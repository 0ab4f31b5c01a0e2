import type { Capability } from './capabilities';
import type { ActiviteitSleutel } from './verwerkingsactiviteiten';

export type ServiceName = 'gateway' | 'applications' | 'documents' | 'letters' | 'reference' | 'audit';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type Requirement =
  /** Any authenticated identity (practitioner or case handler). */
  | { kind: 'identity' }
  /** Authenticated and holding at least one of the capabilities. */
  | { kind: 'capability'; anyOf: readonly Capability[] }
  /** Guarded by something other than a user identity (the notification webhook's shared secret). */
  | { kind: 'shared-secret' };

/**
 * One public route and what it requires: the gateway enforces it before proxying, the owning service again on mount.
 */
export interface RouteRule {
  method: HttpMethod;
  /** Express path syntax; the service mounts exactly this path. */
  path: string;
  service: ServiceName;
  requires: Requirement;
  /**
   * The processing activity a call of this route is (Logboek Dataverwerkingen, ADR 0180): the key of an activity
   * of the register, or `none` for a route that processes no practitioner's personal data. Required: a route
   * cannot forget it.
   */
  processing: Processing;
  /** Audit action written for a denial of this route (spec, Authentication 6). */
  auditDenialAs?: string;
  /**
   * A further requirement when the query names one case's resource (a case's brief: `?referentie=`): the route's
   * own requirement and this one must both hold.
   */
  scoped?: { query: string; requires: Requirement };
}

/** A route's or job's processing activity, or `none`. */
export type Processing = ActiviteitSleutel | 'none';

export const needs = (...anyOf: Capability[]): Requirement => ({ kind: 'capability', anyOf });
export const anyIdentity: Requirement = { kind: 'identity' };
/** A practitioner's own data (ADR 0002). */
export const own: Requirement = needs('applications:own');

/** The rules of one context, keyed by a name its routes refer to. */
export function routeTable<K extends string>(
  service: ServiceName,
  rules: Record<K, Omit<RouteRule, 'service'>>,
): Record<K, RouteRule> {
  return Object.fromEntries(
    Object.entries<Omit<RouteRule, 'service'>>(rules).map(([k, r]) => [k, { ...r, service }]),
  ) as Record<K, RouteRule>;
}
