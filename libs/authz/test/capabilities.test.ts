import {
  assessesOwnCase,
  auditRole,
  capabilitiesOf,
  hasCapability,
  HeaderIdentityProvider,
  type Identity,
} from '../src';

const provider = new HeaderIdentityProvider();
const resolve = (headers: Record<string, string>) => provider.resolve(headers);

describe('HeaderIdentityProvider (ADR 0001)', () => {
  it.each([
    [
      { 'x-subject': '900000001' },
      { practitioner: { subject: '900000001', role: 'drafter' }, caseHandler: null, adminSeam: false },
    ],
    [
      { 'x-subject': '900000001', 'x-role': 'approver' },
      { practitioner: { subject: '900000001', role: 'approver' }, caseHandler: null, adminSeam: false },
    ],
    [
      { 'x-subject': '900000001', 'x-role': 'ADMIN' },
      { practitioner: { subject: '900000001', role: 'drafter' }, caseHandler: null, adminSeam: false },
    ],
    [
      { 'x-subject': 'a.b:c-d_9', 'x-role': 'superuser' },
      { practitioner: { subject: 'a.b:c-d_9', role: 'drafter' }, caseHandler: null, adminSeam: false },
    ],
    [
      { 'x-medewerker': 'mw-1', 'x-rollen': ' Beoordelaar , ,teamleider' },
      {
        practitioner: null,
        caseHandler: { medewerker: 'mw-1', rollen: ['beoordelaar', 'teamleider'] },
        adminSeam: false,
      },
    ],
    [
      { 'x-medewerker': 'mw-1' },
      { practitioner: null, caseHandler: { medewerker: 'mw-1', rollen: [] }, adminSeam: false },
    ],
    [
      { 'x-subject': '900000001', 'x-admin': 'true' },
      { practitioner: { subject: '900000001', role: 'drafter' }, caseHandler: null, adminSeam: true },
    ],
  ])('when the headers are %j, then the identity is %j', async (headers, expected) => {
    expect(await resolve(headers)).toEqual(expected);
  });

  it.each<Record<string, string>>([
    {},
    { 'x-subject': '' },
    { 'x-subject': 'x'.repeat(65) },
    { 'x-subject': 'has space' },
    { 'x-medewerker': 'ü' },
    { 'x-admin': 'true' },
    { 'x-role': 'admin' },
  ])('when the headers are %j, then there is no identity', async (headers) => {
    expect(await resolve(headers)).toBeNull();
  });
});

const practitioner = (role: 'drafter' | 'approver' | 'admin'): Identity => ({
  practitioner: { subject: 's', role },
  caseHandler: null,
  adminSeam: false,
});
const handler = (...rollen: string[]): Identity => ({
  practitioner: null,
  caseHandler: { medewerker: 'm', rollen },
  adminSeam: false,
});

describe('capabilitiesOf (ADR 0002)', () => {
  it.each<[string, Identity | null, string[]]>([
    ['nobody', null, []],
    ['drafter', practitioner('drafter'), ['applications:own', 'brief:edit', 'brief:reveal-registernummer']],
    ['approver', practitioner('approver'), ['applications:own', 'brief:approve']],
    [
      'admin',
      practitioner('admin'),
      [
        'applications:own',
        'audit:read',
        'cases:admin',
        'flags:write',
        'orgtemplate:edit',
        'stamdata:read',
        'uploads:admin-delete',
      ],
    ],
    ['beoordelaar', handler('beoordelaar'), ['CanBeoordelen', 'stamdata:read']],
    ['case handler without the role', handler('teamleider'), []],
    ['only the admin seam', { practitioner: null, caseHandler: null, adminSeam: true }, []],
    ['case handler with the admin seam', { ...handler('teamleider'), adminSeam: true }, ['uploads:admin-delete']],
    [
      'a citizen without a role',
      { ...practitioner('drafter'), practitioner: { subject: '1', role: null } },
      ['applications:own'],
    ],
    [
      'drafter with the admin seam',
      { ...practitioner('drafter'), adminSeam: true },
      ['applications:own', 'brief:edit', 'brief:reveal-registernummer', 'uploads:admin-delete'],
    ],
    [
      'admin who is also a beoordelaar',
      { ...practitioner('admin'), caseHandler: { medewerker: 'm', rollen: ['beoordelaar'] } },
      [
        'CanBeoordelen',
        'applications:own',
        'audit:read',
        'cases:admin',
        'flags:write',
        'orgtemplate:edit',
        'stamdata:read',
        'uploads:admin-delete',
      ],
    ],
  ])('when the caller is %s, then exactly these capabilities in code-point order', (_name, identity, expected) => {
    expect(capabilitiesOf(identity)).toEqual(expected);
  });
});

describe('hasCapability', () => {
  it("when the capability is among the caller's, then true; otherwise or for nobody, false", () => {
    expect(hasCapability(practitioner('approver'), 'brief:approve')).toBe(true);
    expect(hasCapability(practitioner('approver'), 'brief:edit')).toBe(false);
    expect(hasCapability(null, 'applications:own')).toBe(false);
  });
});

describe('assessesOwnCase (ADR 0008)', () => {
  const both = (subject: string): Identity => ({
    practitioner: { subject, role: 'drafter' },
    caseHandler: { medewerker: 'mw-1', rollen: ['beoordelaar'] },
    adminSeam: false,
  });
  it.each<[string, Identity | null, boolean]>([
    ['whose practitioner identity owns the case', both('900000001'), true],
    ['whose practitioner identity is another', both('900000002'), false],
    ['with no practitioner identity', handler('beoordelaar'), false],
    ['nobody', null, false],
  ])('when the caller is one %s, then %s', (_name, identity, expected) => {
    expect(assessesOwnCase(identity, '900000001')).toBe(expected);
  });
});

describe('auditRole (ADR 0012)', () => {
  it('when a practitioner, then the role; a case handler only, then the roles joined; nobody, then system', () => {
    expect(auditRole(practitioner('approver'))).toBe('approver');
    expect(auditRole(handler('beoordelaar', 'teamleider'))).toBe('beoordelaar,teamleider');
    expect(auditRole(null)).toBe('system');
  });
});
