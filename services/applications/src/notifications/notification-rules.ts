import { createHash, timingSafeEqual } from 'node:crypto';
import type { Notificatie } from './notifications.schemas';

/** ADR 0011: the largest notification body accepted (a larger one is 413). */
export const MAX_NOTIFICATION_BYTES = 64 * 1024;

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * The `Authorization` header equals NOTIFICATIES_AUTH, compared in constant time (both sides hashed first,
 * so neither the length nor a prefix leaks). Without a configured secret nothing matches: fail closed.
 */
export function secretMatches(configured: string | undefined, given: string | string[] | undefined): boolean {
  if (!configured || typeof given !== 'string') return false;
  return timingSafeEqual(digest(configured), digest(given));
}

/**
 * The same notification delivered twice (Open Notificaties retries) has the same key: its members, with the
 * kenmerken in key order, so a redelivery with its properties reordered is still the same notification.
 */
export function notificationKey(n: Notificatie): string {
  const kenmerken = Object.entries(n.kenmerken ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return digest(
    JSON.stringify([n.kanaal, n.hoofdObject, n.resource, n.resourceUrl, n.actie, n.aanmaakdatum, kenmerken]),
  ).toString('hex');
}

/** The audit row's resource: what kind of notification it was, never its URLs. */
export function auditResourceOf(n: Notificatie): string {
  return `notificatie/${n.kanaal}/${n.resource}/${n.actie}`.slice(0, 300);
}
