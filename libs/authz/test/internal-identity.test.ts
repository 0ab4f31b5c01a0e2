import { signInternalIdentity, verifyInternalIdentity } from '../src';

const secret = 'a-secret-of-at-least-thirty-two-characters';
const claims = {
  identity: { practitioner: { subject: '900000001', role: 'drafter' as const }, caseHandler: null, adminSeam: false },
  service: null,
  correlationId: 'c-1',
};

describe('signed internal identity', () => {
  it('when signed and verified with the same secret in time, then the claims come back', () => {
    const token = signInternalIdentity(secret, claims, 1_000_000);
    expect(verifyInternalIdentity(secret, token, 1_000_000 + 59_000)).toMatchObject(claims);
  });

  it('when expired, tampered, signed with another secret or malformed, then it is rejected', () => {
    const token = signInternalIdentity(secret, claims, 1_000_000);
    expect(verifyInternalIdentity(secret, token, 1_000_000 + 61_000)).toBeNull();
    expect(verifyInternalIdentity('another-secret-of-thirty-two-characters', token, 1_000_000)).toBeNull();
    const [payload, mac] = token.split('.') as [string, string];
    const forged = Buffer.from(
      JSON.stringify({
        ...claims,
        identity: { ...claims.identity, practitioner: { subject: '900000001', role: 'admin' } },
        exp: 9e9,
      }),
    ).toString('base64url');
    expect(verifyInternalIdentity(secret, `${forged}.${mac}`, 1_000_000)).toBeNull();
    expect(verifyInternalIdentity(secret, `${payload}.`, 1_000_000)).toBeNull();
    expect(verifyInternalIdentity(secret, 'garbage', 1_000_000)).toBeNull();
    expect(verifyInternalIdentity(secret, undefined, 1_000_000)).toBeNull();
  });
});
