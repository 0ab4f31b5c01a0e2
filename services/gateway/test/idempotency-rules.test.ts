import { createHash } from 'node:crypto';
import type { Identity } from '@register/authz';
import { DomainError } from '@register/problem';
import {
  MAX_KEPT_TARGET,
  callerHash,
  idempotencyKeyOf,
  keepsAnswer,
  repeatOutcome,
  targetOf,
} from '../src/idempotency/idempotency-rules';

// ADR 0013 and 0038, the pure part: which requests a key applies to, its scope, and what a repeat gets.
describe('idempotencyKeyOf', () => {
  it.each([
    ['POST', 'k', 'k'],
    ['PUT', 'k', 'k'],
    ['DELETE', 'k', 'k'],
    ['POST', 'x'.repeat(255), 'x'.repeat(255)],
    ['POST', ['a', 'b'], 'a,b'],
    ['GET', 'k', null],
    ['PATCH', 'k', null],
    ['HEAD', 'k', null],
    ['POST', undefined, null],
  ])('when %s carries %j, then the key is %j', (method, header, key) => {
    expect(idempotencyKeyOf(method, header)).toBe(key);
  });

  it.each([
    ['empty', ''],
    ['256 characters', 'x'.repeat(256)],
  ])('when the key is %s, then a 400 naming Idempotency-Key', (_name, header) => {
    let thrown: unknown;
    try {
      idempotencyKeyOf('POST', header);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(DomainError);
    expect(thrown).toMatchObject({
      code: 'validation',
      message: 'Idempotency-Key must be 1 to 255 characters.',
      errors: [{ field: 'Idempotency-Key', code: 'too_long', detail: 'Idempotency-Key must be 1 to 255 characters.' }],
    });
  });
});

describe('callerHash: the whole identity, no subject kept', () => {
  const base: Identity = {
    practitioner: { subject: '900000001', role: 'drafter' },
    caseHandler: { medewerker: 'mw-1', rollen: ['beoordelaar', 'teamleider'] },
    adminSeam: false,
  };
  const hashOf = (parts: [string, string, string, string[], boolean]) =>
    createHash('sha256').update(JSON.stringify(parts)).digest('hex');

  it('when hashed, then it is the SHA-256 of subject, role, employee, sorted roles and the seam', () => {
    expect(callerHash(base)).toBe(hashOf(['900000001', 'drafter', 'mw-1', ['beoordelaar', 'teamleider'], false]));
    expect(callerHash(null)).toBe(hashOf(['', '', '', [], false]));
    expect(callerHash({ practitioner: null, caseHandler: null, adminSeam: false })).toBe(callerHash(null));
    expect(callerHash({ practitioner: { subject: '9', role: null }, caseHandler: null, adminSeam: true })).toBe(
      hashOf(['9', '', '', [], true]),
    );
  });

  it.each<[string, Identity]>([
    ['another subject', { ...base, practitioner: { subject: '900000002', role: 'drafter' } }],
    ['another role', { ...base, practitioner: { subject: '900000001', role: 'approver' } }],
    ['another employee', { ...base, caseHandler: { medewerker: 'mw-2', rollen: ['beoordelaar', 'teamleider'] } }],
    ['other roles', { ...base, caseHandler: { medewerker: 'mw-1', rollen: ['beoordelaar'] } }],
    ['the admin seam', { ...base, adminSeam: true }],
  ])('when only %s differs, then the scope differs', (_name, other) => {
    expect(callerHash(other)).not.toBe(callerHash(base));
  });

  it('when the roles come in another order, then the scope is the same, and the identity is left as it was', () => {
    const reordered = { ...base, caseHandler: { medewerker: 'mw-1', rollen: ['teamleider', 'beoordelaar'] } };
    expect(callerHash(reordered)).toBe(callerHash(base));
    expect(reordered.caseHandler.rollen).toEqual(['teamleider', 'beoordelaar']);
  });
});

describe('targetOf: path and query', () => {
  it('when the target is at most 512 characters, then it is kept as written; one more and it is its SHA-256', () => {
    const at = `/api/v1/brief?referentie=${'x'.repeat(MAX_KEPT_TARGET - 25)}`;
    expect(at).toHaveLength(512);
    expect(targetOf(at)).toBe(at);
    const over = `${at}y`;
    expect(targetOf(over)).toBe(`sha256:${createHash('sha256').update(over).digest('hex')}`);
    expect(targetOf('/api/v1/brief/submit?referentie=AV-2026-000006')).toBe(
      '/api/v1/brief/submit?referentie=AV-2026-000006',
    );
  });
});

describe('repeatOutcome and keepsAnswer', () => {
  it.each([
    [{ state: 'running', request_hash: 'h' }, 'h', 'in-progress'],
    [{ state: 'running', request_hash: null }, 'h', 'in-progress'],
    [{ state: 'completed', request_hash: 'h' }, 'h', 'replay'],
    [{ state: 'completed', request_hash: 'h' }, 'other', 'reused'],
    [{ state: 'completed', request_hash: null }, 'h', 'reused'],
  ] as const)('when the stored record is %j and the body hashes to %s, then %s', (stored, hash, outcome) => {
    expect(repeatOutcome(stored, hash)).toBe(outcome);
  });

  it.each([
    [200, 'h', true],
    [499, 'h', true],
    [500, 'h', false],
    [503, 'h', false],
    [201, undefined, false],
  ])('when the answer is %i and the body hash %j, then kept: %s', (status, hash, kept) => {
    expect(keepsAnswer(status, hash)).toBe(kept);
  });
});
