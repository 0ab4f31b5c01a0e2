/**
 * The demo accounts: the four demo practitioners of the README (their citizen identifier as `bsn`, role
 * `drafter`), an approver and an admin (practitioner roles, the subjects the README's header examples use) and a
 * case handler. The claims are exactly what the gateway's IDENTITY_PROVIDER=oidc reads by default.
 */
export interface DemoAccount {
  /** What the login page offers and the `sub` is made from. */
  login: string;
  label: string;
  claims: { bsn: string; role: 'drafter' | 'approver' | 'admin' } | { medewerker: string; rollen: string[] };
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    login: '900000001',
    label: '900000001: geregistreerd, herregistratie binnen 12 maanden (drafter)',
    claims: { bsn: '900000001', role: 'drafter' },
  },
  {
    login: '900000002',
    label: '900000002: geregistreerd, herregistratie later (drafter)',
    claims: { bsn: '900000002', role: 'drafter' },
  },
  { login: '900000003', label: '900000003: geschorst (drafter)', claims: { bsn: '900000003', role: 'drafter' } },
  { login: '900000004', label: '900000004: doorgehaald (drafter)', claims: { bsn: '900000004', role: 'drafter' } },
  { login: 'approver', label: 'Goedkeurder (approver, 900000002)', claims: { bsn: '900000002', role: 'approver' } },
  { login: 'admin', label: 'Beheerder (admin, 900000003)', claims: { bsn: '900000003', role: 'admin' } },
  {
    login: 'beoordelaar',
    label: 'Medewerker mw-001 (beoordelaar)',
    claims: { medewerker: 'mw-001', rollen: ['beoordelaar'] },
  },
];

export function accountBySubject(sub: string): DemoAccount | undefined {
  return DEMO_ACCOUNTS.find((a) => subjectOf(a) === sub);
}

export function accountByLogin(login: string): DemoAccount | undefined {
  return DEMO_ACCOUNTS.find((a) => a.login === login);
}

/** The token's `sub`: an opaque account id, not the citizen identifier (that travels only in `bsn`). */
export function subjectOf(account: DemoAccount): string {
  return `demo-${account.login}`;
}

/** The sign-in levels the login page offers, as eToegang assurance classes (the gateway's step-up reads them). */
export const LEVELS = {
  basis: 'urn:etoegang:core:assurance-class:loa2',
  substantieel: 'urn:etoegang:core:assurance-class:loa3',
} as const;
export type Level = keyof typeof LEVELS;
