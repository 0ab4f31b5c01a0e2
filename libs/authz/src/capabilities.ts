import { CAPABILITIES, type Capability } from '@register/contracts';
import type { Identity } from './identity';

export { CAPABILITIES, type Capability };

/**
 * The one mapping from an identity to capabilities (ADR 0002). `/me`, every `decisions` object and
 * every enforcement call this; anything not granted here is denied.
 */
export function capabilitiesOf(identity: Identity | null): Capability[] {
  if (!identity) return [];
  const caps = new Set<Capability>();
  const p = identity.practitioner;
  if (p) {
    caps.add('applications:own');
    if (p.role === 'drafter') caps.add('brief:edit').add('brief:reveal-registernummer');
    if (p.role === 'approver') caps.add('brief:approve');
    if (p.role === 'admin') {
      for (const c of [
        'orgtemplate:edit',
        'stamdata:read',
        'flags:write',
        'cases:admin',
        'audit:read',
        'uploads:admin-delete',
      ] as const)
        caps.add(c);
    }
  }
  if (identity.caseHandler?.rollen.includes('beoordelaar')) caps.add('CanBeoordelen').add('stamdata:read');
  if (identity.adminSeam && (p || identity.caseHandler)) caps.add('uploads:admin-delete');
  // Code-point order, as /me promises ('CanBeoordelen' sorts first): capabilities are ASCII, so the default order.
  return [...caps].sort();
}

export function hasCapability(identity: Identity | null, capability: Capability): boolean {
  return capabilitiesOf(identity).includes(capability);
}

/**
 * ADR 0008: a case handler never opens or decides a case whose owner is the caller's own practitioner identity
 * (both on one request), whatever the capabilities say.
 */
export function assessesOwnCase(identity: Identity | null, owner: string): boolean {
  return identity?.practitioner?.subject === owner;
}
