import { IDENTIFIER_PATTERN, ROLES, type Identity, type Role } from './identity';

export type HeaderBag = Record<string, string | string[] | undefined>;

/** Resolves the caller of a request. The header stand-in below is today's; a real provider replaces it. */
export interface IdentityProvider {
  resolve(headers: HeaderBag): Promise<Identity | null>;
}

function header(headers: HeaderBag, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function toRole(value: string | undefined): Role {
  return (ROLES as readonly string[]).includes(value ?? '') ? (value as Role) : 'drafter';
}

/** ADR 0001: X-Subject / X-Role for a practitioner, X-Medewerker / X-Rollen for a case handler. */
export class HeaderIdentityProvider implements IdentityProvider {
  resolve(headers: HeaderBag): Promise<Identity | null> {
    return Promise.resolve(headerIdentity(headers));
  }
}

function headerIdentity(headers: HeaderBag): Identity | null {
  const subject = header(headers, 'x-subject');
  const medewerker = header(headers, 'x-medewerker');
  const practitioner =
    subject !== undefined && IDENTIFIER_PATTERN.test(subject)
      ? { subject, role: toRole(header(headers, 'x-role')) }
      : null;
  const caseHandler =
    medewerker !== undefined && IDENTIFIER_PATTERN.test(medewerker)
      ? {
          medewerker,
          rollen: (header(headers, 'x-rollen') ?? '')
            .split(',')
            .map((r) => r.trim().toLowerCase())
            .filter((r) => r !== ''),
        }
      : null;
  if (!practitioner && !caseHandler) return null;
  return { practitioner, caseHandler, adminSeam: header(headers, 'x-admin') === 'true' };
}
