import type { Identity } from '@register/authz';
import { DomainError } from '@register/problem';

/** The subject whose own data a practitioner route serves; the route's rule already demanded applications:own. */
export function ownerOf(identity: Identity | null): string {
  const subject = identity?.practitioner?.subject;
  if (!subject) throw new DomainError('unauthenticated', 'No practitioner identity.');
  return subject;
}
