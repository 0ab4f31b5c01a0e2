import { addMonths } from '@register/service-kit';
import { mask } from '../src/cases/mask';
import { ChangeRequestRequest } from '../src/change-requests/change-requests.schemas';
import { normalisePhone } from '../src/change-requests/phone';
import type { Context } from '../src/context';
import { HERREGISTRATIE_FLAG, herregistratieDecisions, herregistratieFor } from '../src/registration/eligibility';
import type { Registration } from '../src/registration/registration.schemas';
import { NOT_REGISTERED, type RegistrationTag } from '../src/registration/sources';

const today = '2026-11-22';
const reg = (tag: RegistrationTag, herregistratieDatum: string | null): Registration =>
  tag === 'NietGeregistreerd'
    ? NOT_REGISTERED
    : { ...NOT_REGISTERED, registerNummer: '1', status: { ...NOT_REGISTERED.status, tag, herregistratieDatum } };

describe('herregistratieDecisions (ADR 0007)', () => {
  it.each([
    ['NietGeregistreerd', null, true, false, 'niet-geregistreerd'],
    ['Doorgehaald', '2027-01-01', true, false, 'doorgehaald'],
    ['Doorgehaald', '2027-01-01', false, false, 'doorgehaald'],
    ['Geschorst', '2027-01-01', true, false, 'geschorst'],
    ['Geschorst', '2030-01-01', false, false, 'geschorst'],
    ['Geregistreerd', '2028-01-01', true, false, 'te-vroeg'],
    ['Geregistreerd', '2028-01-01', false, false, 'te-vroeg'],
    ['Geregistreerd', addMonths(today, 12), true, true, null],
    ['Geregistreerd', '2027-11-23', true, false, 'te-vroeg'],
    ['Geregistreerd', '2026-12-01', true, true, null],
    ['Geregistreerd', '2020-01-01', true, true, null],
    ['Geregistreerd', '2026-12-01', false, false, 'uitgeschakeld'],
    ['Geregistreerd', null, true, false, 'te-vroeg'],
  ] as const)(
    'when %s with herregistratie on %s and the flag %s, then eligible is %s (%s)',
    (tag, datum, flag, eligible, reason) => {
      expect(herregistratieDecisions(reg(tag, datum), today, flag)).toEqual({
        eligibleForHerregistratie: eligible,
        herregistratieReason: reason,
      });
    },
  );
});

describe('herregistratieFor (ADR 0007)', () => {
  it("when asked for a subject, then the register is read for Amsterdam's today and the flag by its name", async () => {
    const asked: Array<[string, string]> = [];
    const registration = reg('Geregistreerd', '2026-12-01');
    // The use case reads the context's register, flags and clock only.
    const ctx = {
      register: {
        registrationOf: async (subject: string, day: string) => (asked.push([subject, day]), registration),
        notesOf: async () => [],
      },
      flags: { isEnabled: async (key: string) => key === 'herregistratie-aanvragen' },
      // 23:30 UTC on 21 November is already 22 November in Amsterdam.
      clock: { now: () => new Date('2026-11-21T23:30:00Z') },
    } as unknown as Context;
    expect(HERREGISTRATIE_FLAG).toBe('herregistratie-aanvragen');
    expect(await herregistratieFor(ctx, '900000001')).toEqual({
      registration,
      decisions: { eligibleForHerregistratie: true, herregistratieReason: null },
    });
    expect(asked).toEqual([['900000001', today]]);
  });
});

describe('normalisePhone (ADR 0007)', () => {
  it.each([
    ['0612345678', '0612345678'],
    ['06 12 34 56 78', '0612345678'],
    ['06-12345678', '0612345678'],
    ['(070) 123.45.67', '0701234567'],
    ['+31 6 12345678', '0612345678'],
    ['+31 (6) 1234-5678', '0612345678'],
    ['0031612345678', '0612345678'],
    ['0031 70 123 4567', '0701234567'],
  ])('when %s, then %s', (input, expected) => {
    expect(normalisePhone(input)).toBe(expected);
  });

  // As the route reads the body: a missing or non-string number reaches the rule as null.
  it.each([
    '',
    '061234567',
    '06123456789',
    '+32612345678',
    '612345678',
    '06a2345678',
    '+310612345678',
    null,
    612345678,
  ])('when %p, then invalid-phone-number', (input) => {
    expect(() => normalisePhone(ChangeRequestRequest.parse({ telefoon: input }).telefoon)).toThrow(
      expect.objectContaining({ code: 'invalid-phone-number' }),
    );
  });
});

describe('mask (ADR 0003)', () => {
  it('when a subject is masked, then all but the last 3 characters become *', () => {
    expect(mask('900000001')).toBe('******001');
    expect(mask('abc')).toBe('abc');
    expect(mask(null)).toBeNull();
  });
});
