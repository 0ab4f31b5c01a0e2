import { identityFromClaims } from '../src/identity/oidc-claims';
import { ACR_RANKS, acrRanks, stepUpSatisfied, type StepUpPolicy } from '../src/identity/step-up';
import { VerifiedTokens } from '../src/identity/verified-tokens';

// The pure rules behind IDENTITY_PROVIDER=oidc (ADR 0001), as tables: claims to identity, and the step-up.

describe('identityFromClaims', () => {
  const names = { subject: 'sub_bsn', role: 'rol', employee: 'employee_id', roles: 'groups' };

  it.each<[string, Record<string, unknown>, ReturnType<typeof identityFromClaims>]>([
    [
      'bsn and role',
      { bsn: '900000001', role: 'approver' },
      { practitioner: { subject: '900000001', role: 'approver' }, caseHandler: null, adminSeam: false },
    ],
    [
      'bsn without role',
      { bsn: '900000001' },
      { practitioner: { subject: '900000001', role: null }, caseHandler: null, adminSeam: false },
    ],
    [
      'an unknown role',
      { bsn: '900000001', role: 'Admin' },
      { practitioner: { subject: '900000001', role: null }, caseHandler: null, adminSeam: false },
    ],
    [
      'a role that is not a string',
      { bsn: '900000001', role: ['admin'] },
      { practitioner: { subject: '900000001', role: null }, caseHandler: null, adminSeam: false },
    ],
    [
      'medewerker with rollen as an array',
      { medewerker: 'mw-1', rollen: ['Beoordelaar', ' x '] },
      { practitioner: null, caseHandler: { medewerker: 'mw-1', rollen: ['beoordelaar', 'x'] }, adminSeam: false },
    ],
    [
      'medewerker with rollen comma-separated',
      { medewerker: 'mw-1', rollen: 'a, B,,' },
      { practitioner: null, caseHandler: { medewerker: 'mw-1', rollen: ['a', 'b'] }, adminSeam: false },
    ],
    [
      'rollen with non-strings',
      { medewerker: 'mw-1', rollen: ['a', 3, null] },
      { practitioner: null, caseHandler: { medewerker: 'mw-1', rollen: ['a'] }, adminSeam: false },
    ],
    [
      'both',
      { bsn: '1', medewerker: 'mw-1' },
      {
        practitioner: { subject: '1', role: null },
        caseHandler: { medewerker: 'mw-1', rollen: [] },
        adminSeam: false,
      },
    ],
    ['neither', { sub: 'abc', role: 'admin', rollen: 'beoordelaar' }, null],
    ['a numeric bsn', { bsn: 900000001 }, null],
    ['a bsn with a space', { bsn: '9000 0001' }, null],
    ['a bsn of 65 characters', { bsn: 'x'.repeat(65) }, null],
  ])('when the token carries %s, then the identity it names (no known role: none)', (_name, claims, expected) => {
    expect(identityFromClaims(claims)).toEqual(expected);
  });

  it('when the claims are renamed, then only the configured names count', () => {
    expect(identityFromClaims({ sub_bsn: '900000003', rol: 'admin', bsn: '900000001' }, names)?.practitioner).toEqual({
      subject: '900000003',
      role: 'admin',
    });
    expect(
      identityFromClaims({ employee_id: 'mw-9', groups: ['beoordelaar'], medewerker: 'mw-1' }, names)?.caseHandler,
    ).toEqual({ medewerker: 'mw-9', rollen: ['beoordelaar'] });
    expect(identityFromClaims({ bsn: '900000001', medewerker: 'mw-1' }, names)).toBeNull();
  });
});

describe('stepUpSatisfied', () => {
  const now = 1_800_000_000;
  const policy: StepUpPolicy = {
    minimumAcr: 'urn:etoegang:core:assurance-class:loa3',
    maxAgeSeconds: 300,
    ranks: ACR_RANKS,
    leewaySeconds: 30,
  };
  const loa = (n: string) => `urn:etoegang:core:assurance-class:loa${n}`;

  it.each<[string, { acr: string | null; authTime: number | null } | null, StepUpPolicy, boolean]>([
    ['no assurance at all', null, policy, false],
    ['loa2, signed in long ago', { acr: loa('2'), authTime: now - 3600 }, policy, false],
    ['loa2plus (DigiD Midden level)', { acr: loa('2plus'), authTime: null }, policy, false],
    ['loa3', { acr: loa('3'), authTime: null }, policy, true],
    ['loa4', { acr: loa('4'), authTime: null }, policy, true],
    [
      'DigiD Basis',
      { acr: 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport', authTime: null },
      policy,
      false,
    ],
    [
      'DigiD Midden',
      { acr: 'urn:oasis:names:tc:SAML:2.0:ac:classes:MobileTwoFactorContract', authTime: null },
      policy,
      false,
    ],
    ['DigiD Substantieel', { acr: 'urn:oasis:names:tc:SAML:2.0:ac:classes:Smartcard', authTime: null }, policy, true],
    ['DigiD Hoog', { acr: 'urn:oasis:names:tc:SAML:2.0:ac:classes:SmartcardPKI', authTime: null }, policy, true],
    ['eIDAS low', { acr: 'http://eidas.europa.eu/LoA/low', authTime: null }, policy, false],
    ['eIDAS high', { acr: 'http://eidas.europa.eu/LoA/high', authTime: null }, policy, true],
    ['an unknown acr', { acr: 'gold', authTime: null }, policy, false],
    ['a sign-in exactly at the maximum age', { acr: null, authTime: now - 300 }, policy, true],
    ['a sign-in one second too old', { acr: null, authTime: now - 301 }, policy, false],
    ['a sign-in within the leeway in the future', { acr: null, authTime: now + 30 }, policy, true],
    ['a sign-in beyond the leeway in the future', { acr: null, authTime: now + 31 }, policy, false],
    ['loa3 when only recency counts', { acr: loa('3'), authTime: now - 3600 }, { ...policy, minimumAcr: null }, false],
    [
      'a recent sign-in when only the acr counts',
      { acr: loa('2'), authTime: now - 1 },
      { ...policy, maxAgeSeconds: null },
      false,
    ],
    [
      'Keycloak level 2 of 0,1,2 with minimum 1',
      { acr: '2', authTime: null },
      { ...policy, minimumAcr: '1', ranks: acrRanks(['0', '1', '2']) },
      true,
    ],
    [
      'Keycloak level 0 of 0,1,2 with minimum 1',
      { acr: '0', authTime: null },
      { ...policy, minimumAcr: '1', ranks: acrRanks(['0', '1', '2']) },
      false,
    ],
  ])('when the token shows %s, then step-up is %s', (_name, assurance, p, expected) => {
    expect(stepUpSatisfied(assurance, p, now)).toBe(expected);
  });
});

describe('VerifiedTokens', () => {
  const t0 = 1_800_000_000_000;

  it('when a token was verified, then it is known until it expires, and not a moment longer', () => {
    const cache = new VerifiedTokens<string>(10, 60_000);
    cache.set('a.b.c', 'drafter', t0 + 10_000, t0);
    expect(cache.get('a.b.c', t0 + 9_999)).toBe('drafter');
    expect(cache.get('a.b.c', t0 + 10_000)).toBeUndefined();
    expect(cache.get('a.b.c', t0 + 1)).toBeUndefined();
  });

  it(
    'when a token lives long, ' + 'then it is verified again after the maximum age (a withdrawn key stops counting)',
    () => {
      const cache = new VerifiedTokens<string>(10, 60_000);
      cache.set('a.b.c', 'drafter', t0 + 3_600_000, t0);
      expect(cache.get('a.b.c', t0 + 59_999)).toBe('drafter');
      expect(cache.get('a.b.c', t0 + 60_000)).toBeUndefined();
    },
  );

  it('when a token has already expired, then it is not kept; another token never hits', () => {
    const cache = new VerifiedTokens<string>(10, 60_000);
    cache.set('old', 'drafter', t0, t0);
    expect(cache.get('old', t0)).toBeUndefined();
    cache.set('a.b.c', 'drafter', t0 + 10_000, t0);
    expect(cache.get('a.b.C', t0)).toBeUndefined();
  });

  it('when more tokens come than it holds, then the oldest goes first', () => {
    const cache = new VerifiedTokens<number>(3, 60_000);
    for (let i = 1; i <= 4; i += 1) cache.set(`t${i}`, i, t0 + 10_000, t0);
    expect([1, 2, 3, 4].map((i) => cache.get(`t${i}`, t0))).toEqual([undefined, 2, 3, 4]);
  });
});
