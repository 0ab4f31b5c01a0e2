import { verifyInternalIdentity, type Identity } from '@register/authz';
import { SignedIdentities } from '../src/proxy/signed-identities';

// ADR 0272: the gateway signs each caller's internal identity once per half of its 60 s lifetime.

const secret = 'a-secret-of-at-least-thirty-two-characters';
const drafter: Identity = {
  practitioner: { subject: '900000001', role: 'drafter' },
  caseHandler: null,
  adminSeam: false,
};
const handler: Identity = {
  practitioner: null,
  caseHandler: { medewerker: 'E1', rollen: ['beoordelaar'] },
  adminSeam: false,
};

function clockAt(startMs: number): { now: () => number; advance: (ms: number) => void } {
  let at = startMs;
  return { now: () => at, advance: (ms) => (at += ms) };
}

describe('SignedIdentities', () => {
  it('gives one caller the same token for 30 s, then a new one that a service still accepts 59 s later', () => {
    const clock = clockAt(1_800_000_000_000);
    const tokens = new SignedIdentities(secret, clock.now);
    const first = tokens.tokenFor(drafter);
    clock.advance(29_999);
    expect(tokens.tokenFor(drafter)).toBe(first);
    // Reused at its latest, it still has at least 29 s to live when a service checks it.
    expect(verifyInternalIdentity(secret, first, clock.now() + 29_000)).toMatchObject({ identity: drafter });
    clock.advance(1);
    const second = tokens.tokenFor(drafter);
    expect(second).not.toBe(first);
    expect(verifyInternalIdentity(secret, second, clock.now() + 59_000)).toEqual({
      identity: drafter,
      service: null,
      correlationId: null,
      exp: Math.floor(clock.now() / 1000) + 60,
    });
  });

  it('signs each caller, and no caller, apart', () => {
    const tokens = new SignedIdentities(secret, () => 1_800_000_000_000);
    const now = 1_800_000_000_000;
    const seen = [drafter, handler, null].map((identity) => {
      const token = tokens.tokenFor(identity);
      expect(verifyInternalIdentity(secret, token, now)?.identity).toEqual(identity);
      return token;
    });
    expect(new Set(seen).size).toBe(3);
  });

  it('keeps no token of an identity longer than its bound: it is signed anew on the next request', () => {
    const clock = clockAt(1_800_000_000_000);
    const tokens = new SignedIdentities(secret, clock.now);
    const long: Identity = {
      practitioner: null,
      caseHandler: { medewerker: 'E1', rollen: Array.from({ length: 200 }, (_, i) => `rol${i}`) },
      adminSeam: false,
    };
    const first = tokens.tokenFor(long);
    clock.advance(1000);
    const second = tokens.tokenFor(long);
    expect(second).not.toBe(first);
    expect(verifyInternalIdentity(secret, second, clock.now())?.identity).toEqual(long);
    // A short identity at the same moments keeps its token.
    const short = new SignedIdentities(secret, clock.now);
    const kept = short.tokenFor(drafter);
    clock.advance(1000);
    expect(short.tokenFor(drafter)).toBe(kept);
  });

  it('signs with its own secret: another secret does not verify', () => {
    const token = new SignedIdentities(secret).tokenFor(drafter);
    expect(verifyInternalIdentity(secret, token)).not.toBeNull();
    expect(verifyInternalIdentity('another-secret-of-thirty-two-characters!', token)).toBeNull();
  });
});
