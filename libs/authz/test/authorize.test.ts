import { anyIdentity, needs } from '@register/contracts';
import { authorize, findRule, type Identity, type RouteRule } from '../src';

// ADR 0002 as a table: who passes which kind of rule, 401 before 403, and a case-scoped rule's second requirement.

const drafter: Identity = {
  practitioner: { subject: '900000001', role: 'drafter' },
  caseHandler: null,
  adminSeam: false,
};
const approver: Identity = {
  practitioner: { subject: '900000002', role: 'approver' },
  caseHandler: null,
  adminSeam: false,
};
const citizen: Identity = { practitioner: { subject: '900000004', role: null }, caseHandler: null, adminSeam: false };
const beoordelaar: Identity = {
  practitioner: null,
  caseHandler: { medewerker: 'mw-1', rollen: ['beoordelaar'] },
  adminSeam: false,
};
const nobody: Identity = { practitioner: null, caseHandler: null, adminSeam: true };

const rule = (requires: RouteRule['requires'], scoped?: RouteRule['scoped']): RouteRule => ({
  method: 'GET',
  path: '/api/v1/x',
  service: 'letters',
  processing: 'none',
  requires,
  ...(scoped ? { scoped } : {}),
});
const secret = rule({ kind: 'shared-secret' });
const identity = rule(anyIdentity);
const edit = rule(needs('brief:edit'));
const editOrApprove = rule(needs('brief:edit', 'brief:approve'));
const caseBrief = rule(anyIdentity, { query: 'referentie', requires: needs('brief:edit', 'cases:admin') });

describe('authorize', () => {
  it.each<[string, RouteRule, Identity | null, Record<string, unknown>, ReturnType<typeof authorize>]>([
    ['a shared-secret rule, no identity', secret, null, {}, 'allow'],
    ['a shared-secret rule, an identity without practitioner or case handler', secret, nobody, {}, 'allow'],
    ['any identity, none', identity, null, {}, 'unauthenticated'],
    ['any identity, only the admin seam', identity, nobody, {}, 'unauthenticated'],
    ['any identity, a citizen', identity, citizen, {}, 'allow'],
    ['any identity, a case handler', identity, beoordelaar, {}, 'allow'],
    ['a capability, none', edit, null, {}, 'unauthenticated'],
    ['a capability, held', edit, drafter, {}, 'allow'],
    ['a capability, not held', edit, approver, {}, 'forbidden'],
    ['a capability, a citizen', edit, citizen, {}, 'forbidden'],
    ['one of two capabilities, the second held', editOrApprove, approver, {}, 'allow'],
    ['one of two capabilities, neither held', editOrApprove, beoordelaar, {}, 'forbidden'],
    ['a scoped rule without its query, a citizen', caseBrief, citizen, {}, 'allow'],
    ['a scoped rule with its query, a citizen', caseBrief, citizen, { referentie: 'AV-1' }, 'forbidden'],
    ['a scoped rule with its query, the scope held', caseBrief, drafter, { referentie: 'AV-1' }, 'allow'],
    ['a scoped rule with an empty query value, a citizen', caseBrief, citizen, { referentie: '' }, 'forbidden'],
    ['a scoped rule with another query, a citizen', caseBrief, citizen, { other: 'AV-1' }, 'allow'],
    ['a scoped rule with its query, no identity', caseBrief, null, { referentie: 'AV-1' }, 'unauthenticated'],
  ])('when %s, then %s', (_name, r, who, query, expected) => {
    expect(authorize(r, who, query)).toBe(expected);
  });

  it('when no query is given, then a scoped rule is judged as if none was sent', () => {
    expect(authorize(caseBrief, citizen)).toBe('allow');
  });
});

describe('findRule', () => {
  const rules = [rule(anyIdentity), { ...rule(needs('brief:edit')), method: 'PUT' as const }];

  it('when method and path match a rule, then that rule', () => {
    expect(findRule('PUT', '/api/v1/x', rules)).toBe(rules[1]);
    expect(findRule('GET', '/api/v1/x', rules)).toBe(rules[0]);
  });

  it('when only the path or only the method matches, then none', () => {
    expect(findRule('DELETE', '/api/v1/x', rules)).toBeUndefined();
    expect(findRule('GET', '/api/v1/y', rules)).toBeUndefined();
  });

  it('when no rules are given, then the route table is searched', () => {
    expect(findRule('GET', '/api/v1/me')).toMatchObject({ method: 'GET', path: '/api/v1/me' });
  });
});
