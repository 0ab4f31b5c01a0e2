import { CAPABILITIES, type Capability } from '@register/contracts';
import type { Identity } from './identity';

export { CAPABILITIES, type Capability };

/**
 * An identity's capabilities in code-point order, as `/me` and every `decisions` object promise ('CanBeoordelen'
 * sorts first): capabilities are ASCII, so the default order.
 */
export function capabilitiesOf(identity: Identity | null): Capability[] {
  return [...capabilitySet(identity)].sort();
}

/**
 * The one mapping from an identity to capabilities (ADR 0002). `/me`, every `decisions` object and every
 * enforcement (a set: a check needs no order) come from it; anything not granted here is denied.
 */
export function capabilitySet(identity: Identity | null): ReadonlySet<Capability> {
  const caps = new Set<Capability>();
  if (!identity) return caps;
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
  return caps;
}

export function hasCapability(identity: Identity | null, capability: Capability): boolean {
  return capabilitySet(identity).has(capability);
}

/**
 * ADR 0008: a case handler never opens or decides a case whose owner is the caller's own practitioner identity
 * (both on one request), whatever the capabilities say.
 */
export function assessesOwnCase(identity: Identity | null, owner: string): boolean {
  return identity?.practitioner?.subject === owner;
}
