import { addMonths, systemClock, todayInAmsterdam } from '@register/service-kit';
import { caseHandler, practitioner } from '@register/testkit';
import { client } from './support/client';
import { as, startNeighboursSystem, type NeighboursSystem } from './support/neighbours-system';

let system: NeighboursSystem;
beforeAll(async () => {
  system = await startNeighboursSystem();
});
afterAll(async () => system.close());

const DEMO = [
  ['900000001', 'Geregistreerd', true, null],
  ['900000002', 'Geregistreerd', false, 'te-vroeg'],
  ['900000003', 'Geschorst', false, 'geschorst'],
  ['900000004', 'Doorgehaald', false, 'doorgehaald'],
  ['123456789', 'NietGeregistreerd', false, 'niet-geregistreerd'],
] as const;

describe('GET /api/v1/dashboard-view', () => {
  it.each(DEMO)('when %s asks, then the registration is %s', async (subject, tag, eligible, reason) => {
    const res = await as.practitioner(system, subject).get('/api/v1/dashboard-view');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['decisions', 'person', 'registration']);
    expect(res.body.registration.status.tag).toBe(tag);
    expect(Object.keys(res.body.registration.status).sort()).toEqual([
      'doorgehaaldOp',
      'geschorstTot',
      'herregistratieDatum',
      'reden',
      'tag',
    ]);
    expect(res.body.decisions).toEqual({ eligibleForHerregistratie: eligible, herregistratieReason: reason });
  });

  it(
    'when 900000001 and 900000002 ask, then the herregistratie dates sit within and ' + 'beyond 12 months of today',
    async () => {
      const one = (await as.practitioner(system, '900000001').get('/api/v1/dashboard-view')).body;
      const two = (await as.practitioner(system, '900000002').get('/api/v1/dashboard-view')).body;
      expect(one.registration.status.herregistratieDatum).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(two.registration.status.herregistratieDatum).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(one.person.adres.straat).not.toBeNull();
      // ADR 0007: within means at most 12 months after today (in Amsterdam); YYYY-MM-DD strings compare as dates.
      const limit = addMonths(todayInAmsterdam(systemClock), 12);
      expect(one.registration.status.herregistratieDatum <= limit).toBe(true);
      expect(two.registration.status.herregistratieDatum > limit).toBe(true);
      const none = (await as.practitioner(system, '123456789').get('/api/v1/dashboard-view')).body;
      expect(none.registration).toEqual({
        registerNummer: null,
        naam: null,
        beroep: null,
        registratiedatum: null,
        geboortedatum: null,
        status: {
          tag: 'NietGeregistreerd',
          herregistratieDatum: null,
          geschorstTot: null,
          reden: null,
          doorgehaaldOp: null,
        },
      });
      expect(none.person).toEqual({
        naam: null,
        geboortedatum: null,
        adres: { straat: null, postcode: null, woonplaats: null },
      });
    },
  );

  it('when a case handler without practitioner identity asks, then 403', async () => {
    expect((await client(system.apps.url, caseHandler('mw-1')).get('/api/v1/dashboard-view')).status).toBe(403);
    expect((await client(system.apps.url, null).get('/api/v1/dashboard-view')).status).toBe(401);
  });
});

describe('eligibility agrees with its enforcement (every demo subject × flag state)', () => {
  it.each([true, false])(
    'when the flag herregistratie-aanvragen is %s, then the dashboard flag predicts create',
    async (flag) => {
      await system.reference.setFlag('herregistratie-aanvragen', flag);
      try {
        for (const [subject] of DEMO) {
          const me = as.practitioner(system, subject);
          const dashboard = (await me.get('/api/v1/dashboard-view')).body;
          const created = await me.post('/api/v1/applications', { type: 'herregistratie' });
          expect([subject, created.status]).toEqual([
            subject,
            dashboard.decisions.eligibleForHerregistratie ? 201 : 409,
          ]);
          if (!flag) expect(dashboard.decisions.herregistratieReason).not.toBeNull();
          if (created.status === 201) await me.delete(`/api/v1/applications/${created.body.id}`);
        }
        const one = (await as.practitioner(system, '900000001').get('/api/v1/dashboard-view')).body.decisions;
        expect(one).toEqual(
          flag
            ? { eligibleForHerregistratie: true, herregistratieReason: null }
            : { eligibleForHerregistratie: false, herregistratieReason: 'uitgeschakeld' },
        );
      } finally {
        // Shipped on: no test after this one depends on the order it ran in.
        await system.reference.setFlag('herregistratie-aanvragen', true);
      }
    },
  );
});

describe('person views', () => {
  it('when 900000001 asks notes, address and diplomas, then there is at least one of each', async () => {
    const me = as.practitioner(system, '900000001');
    const notes = (await me.get('/api/v1/notes')).body;
    expect(notes.length).toBeGreaterThan(0);
    expect(Object.keys(notes[0]).sort()).toEqual(['datum', 'omschrijving', 'type']);
    expect((await me.get('/api/v1/population/address')).body).toMatchObject({ gevonden: true });
    const edu = (await me.get('/api/v1/education/diplomas')).body;
    expect(edu.diplomas.length).toBeGreaterThan(0);
    const foreign = edu.diplomas.find((d: { policyQuestions: unknown[] }) => d.policyQuestions.length > 0);
    expect(foreign.policyQuestions.map((q: { id: string }) => q.id)).toContain('taalvaardigheid');
    expect(foreign.policyQuestions[0].vraag).toEqual(expect.any(String));
    expect(edu.handmatig.beroepen).toEqual(expect.arrayContaining(['arts', 'verpleegkundige']));
    expect(edu.handmatig.policyQuestions.map((q: { id: string }) => q.id)).toEqual([
      'buitenlands-diploma-erkend',
      'taalvaardigheid',
      'werkervaring-buitenland',
    ]);
  });

  it.each([
    ['900000002', 0, true, 1],
    ['900000003', 1, true, 0],
    ['900000004', 0, false, 0],
    ['123456780', 0, false, 0],
  ])(
    'when %s asks, then notes %s, address found %s, digital diplomas %s',
    async (subject, notes, gevonden, diplomas) => {
      const me = as.practitioner(system, subject);
      expect((await me.get('/api/v1/notes')).body).toHaveLength(notes);
      const address = (await me.get('/api/v1/population/address')).body;
      expect(address.gevonden).toBe(gevonden);
      if (!gevonden) expect(address.adres).toEqual({ straat: null, postcode: null, woonplaats: null });
      expect((await me.get('/api/v1/education/diplomas')).body.diplomas).toHaveLength(diplomas);
    },
  );

  it('when the intake policy is read, then scholingThreshold is 2080', async () => {
    expect((await as.practitioner(system).get('/api/v1/intake/policy')).body).toEqual({ scholingThreshold: 2080 });
  });
});

describe('POST /api/v1/change-requests', () => {
  it.each(['06 12 34 56 78', '+31 6 1234 5678', '0031-6-12345678', '(06) 12.34.56.78'])(
    'when %s, then 200 with a WV referentie',
    async (telefoon) => {
      const res = await as.practitioner(system).post('/api/v1/change-requests', { telefoon });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ referentie: expect.stringMatching(/^WV-\d{4}-\d{6}$/) });
    },
  );

  it.each([{ telefoon: '0612' }, { telefoon: '+32 6 12345678' }, {}, { telefoon: 612345678 }])(
    'when %j, then 422 invalid-phone-number without echoing it',
    async (body) => {
      const res = await client(system.apps.url, practitioner('900000001')).post('/api/v1/change-requests', body);
      expect(res.status).toBe(422);
      expect(res.body.type).toBe('/problems/invalid-phone-number');
      expect(JSON.stringify(res.body)).not.toContain('0612');
    },
  );
});
