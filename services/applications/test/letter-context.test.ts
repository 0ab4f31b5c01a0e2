import { applications } from '@register/contracts';
import { asService, asUser, caseHandler, practitioner } from '@register/testkit';
import { as, startNeighboursSystem, type NeighboursSystem } from './support/neighbours-system';

let system: NeighboursSystem;
beforeAll(async () => {
  system = await startNeighboursSystem();
});
afterAll(() => system.close());

const { paths, letterContext } = applications.internal;
const caseContext = (id: string) => paths.caseLetterContext.replace(':applicationId', id);
const practitionerContext = (subject: string) => paths.practitionerLetterContext.replace(':subject', subject);

/** As the letters service calls it: a signed service identity. */
async function asLetters(path: string, headers: Record<string, string> = asService('letters')) {
  const res = await fetch(`${system.apps.url}${path}`, { headers });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** 900000001's herregistratie, submitted with werkervaring and decided with `besluit`. */
async function decided(besluit: 'toekennen' | 'afwijzen', toelichting?: string) {
  const me = as.practitioner(system, '900000001');
  const { id } = (await me.post('/api/v1/applications', { type: 'herregistratie' })).body;
  const doc = await system.documents.upload(me.subject, 'herregistratie', 'werkervaring');
  const submitted = await me.post(`/api/v1/applications/${id}/submit`, {
    uren: 100,
    documents: [{ categoryId: 'werkervaring', channel: 'digitaal', documentId: doc }],
  });
  expect(submitted.status).toBe(200);
  expect(
    (await as.beoordelaar(system).post(`/api/v1/beoordeling/${id}/besluit`, { besluit, toelichting })).status,
  ).toBe(200);
  return { id: id as string, referentie: submitted.body.referentie as string };
}

describe('GET /internal/applications/:applicationId/letter-context', () => {
  it(
    'when the application is decided, then its case, ' + 'the practitioner as the register knows them and who they are',
    async () => {
      const { id, referentie } = await decided('afwijzen', 'Onvoldoende werkervaring');
      const res = await asLetters(caseContext(id));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        applicationId: id,
        referentie,
        type: 'herregistratie',
        besluit: 'afwijzen',
        toelichting: 'Onvoldoende werkervaring',
        decidedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        beroep: 'arts',
        zorgverlenerNaam: 'A. de Vries',
        registerNummer: '10000000101',
        subject: '900000001',
      });
      expect(letterContext.safeParse(res.body).success).toBe(true);
    },
  );

  it('when the application is unknown, a Concept, only submitted, or the id is no uuid, then a bare 404', async () => {
    const me = as.practitioner(system);
    const { id } = (await me.post('/api/v1/applications', { type: 'intake' })).body;
    expect(await asLetters(caseContext(id))).toEqual({ status: 404, body: null });
    expect(
      (await me.post(`/api/v1/applications/${id}/submit`, { diplomaHerkomst: 'digitaal', uren: 3000 })).status,
    ).toBe(200);
    expect(await asLetters(caseContext(id))).toEqual({ status: 404, body: null });
    expect(await asLetters(caseContext('00000000-0000-4000-8000-000000000000'))).toEqual({ status: 404, body: null });
    expect(await asLetters(caseContext('nope'))).toEqual({ status: 404, body: null });
  });

  it('when a user (not a service) calls it, then 403; unsigned, then 401', async () => {
    const { id } = await decided('toekennen');
    expect((await asLetters(caseContext(id), asUser(caseHandler('mw-1')))).status).toBe(403);
    expect((await asLetters(caseContext(id), asUser(practitioner('900000001')))).status).toBe(403);
    expect((await asLetters(caseContext(id), {})).status).toBe(401);
  });
});

describe('GET /internal/practitioners/:subject/letter-context', () => {
  it('when the shared working brief asks for 900000001, then the register fields and no case', async () => {
    const res = await asLetters(practitionerContext('900000001'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      applicationId: null,
      referentie: null,
      type: null,
      besluit: null,
      toelichting: null,
      decidedAt: null,
      beroep: 'arts',
      zorgverlenerNaam: 'A. de Vries',
      registerNummer: '10000000101',
      subject: '900000001',
    });
    expect(letterContext.safeParse(res.body).success).toBe(true);
  });

  it('when the subject is not registered, then every field null but the subject asked for', async () => {
    const res = await asLetters(practitionerContext('123456789'));
    expect(res.status).toBe(200);
    const { subject, ...rest } = res.body as Record<string, unknown>;
    expect(subject).toBe('123456789');
    expect(Object.values(rest).every((v) => v === null)).toBe(true);
  });

  it('when the subject is not a valid subject, then 400 naming it; a user caller 403', async () => {
    const res = await asLetters(practitionerContext('a'.repeat(65)));
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('subject');
    expect((await asLetters(practitionerContext('900000001'), asUser(practitioner('900000001')))).status).toBe(403);
  });
});
