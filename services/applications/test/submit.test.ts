import { sql } from 'kysely';
import { applications } from '@register/contracts';
import { asUser, eventually, practitioner } from '@register/testkit';
import { as, startNeighboursSystem, type NeighboursSystem } from './support/neighbours-system';

let system: NeighboursSystem;
beforeAll(async () => {
  system = await startNeighboursSystem();
});
afterAll(() => system.close());

async function draft(system: NeighboursSystem, type: 'intake' | 'herregistratie', subject?: string) {
  const me = as.practitioner(system, subject);
  const created = await me.post('/api/v1/applications', { type });
  if (created.status !== 201) throw new Error(`create answered ${created.status}`);
  return { me, id: created.body.id as string };
}

describe('POST /api/v1/applications/:id/submit', () => {
  it(
    'when an intake handmatig is submitted with its diploma, then 200, AV referentie ' +
      'and the document is gekoppeld',
    async () => {
      const { me, id } = await draft(system, 'intake');
      const doc = await system.documents.upload(me.subject, 'intake', 'diploma');
      const res = await me.post(`/api/v1/applications/${id}/submit`, {
        diplomaHerkomst: 'handmatig',
        uren: 3000,
        documents: [{ categoryId: 'diploma', channel: 'digitaal', documentId: doc }],
      });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['referentie', 'status']);
      expect(res.body.referentie).toMatch(/^AV-\d{4}-\d{6}$/);
      expect(res.body.status).toMatchObject({
        tag: 'Ingediend',
        referentie: res.body.referentie,
        manual: false,
        reden: null,
      });
      expect(await system.documents.statusOf(me.subject, doc)).toBe('gekoppeld');
      const back = (await me.get(`/api/v1/applications/${id}`)).body;
      expect(back).toMatchObject({ documentIds: [doc], status: { tag: 'Ingediend' } });
      expect(back.submittedAt).toMatch(/Z$/);
    },
  );

  it(
    'when a submitted application linked an upload, then its owner can no longer ' +
      'delete that upload (409) and it stays gekoppeld (ADR 0005)',
    async () => {
      const { me, id } = await draft(system, 'intake');
      const doc = await system.documents.upload(me.subject, 'intake', 'diploma');
      const res = await me.post(`/api/v1/applications/${id}/submit`, {
        diplomaHerkomst: 'handmatig',
        uren: 3000,
        documents: [{ categoryId: 'diploma', channel: 'digitaal', documentId: doc }],
      });
      expect(res.status).toBe(200);
      const del = await fetch(`${system.documents.url}/api/v1/uploads/${doc}`, {
        method: 'DELETE',
        headers: asUser(practitioner(me.subject)),
      });
      expect(del.status).toBe(409);
      expect(((await del.json()) as { type: string }).type).toBe('/problems/conflict');
      expect(await system.documents.statusOf(me.subject, doc)).toBe('gekoppeld');
    },
  );

  it('when submitted again, then 409', async () => {
    const { me, id } = await draft(system, 'intake');
    const body = { diplomaHerkomst: 'digitaal', uren: 3000 };
    expect((await me.post(`/api/v1/applications/${id}/submit`, body)).status).toBe(200);
    expect((await me.post(`/api/v1/applications/${id}/submit`, body)).status).toBe(409);
  });

  it('when two submits race, then one referentie and one 409', async () => {
    const { me, id } = await draft(system, 'intake');
    const body = { diplomaHerkomst: 'digitaal', uren: 3000 };
    const results = await Promise.all([
      me.post(`/api/v1/applications/${id}/submit`, body),
      me.post(`/api/v1/applications/${id}/submit`, body),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const won = results.find((r) => r.status === 200)!;
    expect(results.find((r) => r.status === 409)!.body.type).toBe('/problems/conflict');
    // The application keeps the referentie of the submit that won; the other drew none.
    expect((await me.get(`/api/v1/applications/${id}`)).body.status.referentie).toBe(won.body.referentie);
    const { rows } = await sql<{
      referentie: string | null;
    }>`SELECT referentie FROM applications WHERE id = ${id}::uuid`.execute(system.apps.db);
    expect(rows).toEqual([{ referentie: won.body.referentie }]);
  });

  it(
    'when many applications are submitted at once, then every referentie is AV-<year ' +
      'in Amsterdam>-<6 digits> and no two are the same (ADR 0005)',
    async () => {
      const drafts = await Promise.all(Array.from({ length: 8 }, () => draft(system, 'intake')));
      const results = await Promise.all(
        drafts.map(({ me, id }) =>
          me.post(`/api/v1/applications/${id}/submit`, { diplomaHerkomst: 'digitaal', uren: 3000 }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(drafts.map(() => 200));
      for (const [i, { me, id }] of drafts.entries()) {
        const { submittedAt } = (await me.get(`/api/v1/applications/${id}`)).body as { submittedAt: string };
        const year = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam', year: 'numeric' }).format(
          new Date(submittedAt),
        );
        expect(results[i]!.body.referentie).toMatch(new RegExp(`^AV-${year}-\\d{6}$`));
      }
      expect(new Set(results.map((r) => r.body.referentie)).size).toBe(drafts.length);
    },
  );

  it(
    'when handmatig has no diploma document, then 400 naming documents and the ' + 'application stays Concept',
    async () => {
      const { me, id } = await draft(system, 'intake');
      const res = await me.post(`/api/v1/applications/${id}/submit`, { diplomaHerkomst: 'handmatig', uren: 3000 });
      expect(res.status).toBe(400);
      expect(res.body.type).toBe('/problems/validation');
      expect(res.body.errors[0].field).toBe('documents');
      expect((await me.get(`/api/v1/applications/${id}`)).body.status.tag).toBe('Concept');
    },
  );

  it('when the document belongs to another subject, then 400 and nothing is linked', async () => {
    const { me, id } = await draft(system, 'intake');
    const foreign = await system.documents.upload('100000077', 'intake', 'diploma');
    const res = await me.post(`/api/v1/applications/${id}/submit`, {
      diplomaHerkomst: 'handmatig',
      uren: 3000,
      documents: [{ categoryId: 'diploma', channel: 'digitaal', documentId: foreign }],
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('documents[0].documentId');
    expect(await system.documents.statusOf('100000077', foreign)).toBe('ontvangen');
  });

  it('when the diploma comes by post, then 200 without documents', async () => {
    const { me, id } = await draft(system, 'intake');
    const res = await me.post(`/api/v1/applications/${id}/submit`, {
      diplomaHerkomst: 'handmatig',
      uren: 3000,
      documents: [{ categoryId: 'diploma', channel: 'post' }],
    });
    expect(res.status).toBe(200);
  });

  it(
    'when an intake below the threshold lacks the scholing answer, then 400 ' + 'scholing-incompleet; false is legal',
    async () => {
      const { me, id } = await draft(system, 'intake');
      const policy = (await me.get('/api/v1/intake/policy')).body.scholingThreshold as number;
      const missing = await me.post(`/api/v1/applications/${id}/submit`, {
        diplomaHerkomst: 'digitaal',
        uren: policy - 1,
      });
      expect(missing.status).toBe(400);
      expect(missing.body.type).toBe('/problems/scholing-incompleet');
      expect(missing.body.errors[0].field).toBe('aanvullendeScholing');
      const punten = await me.post(`/api/v1/applications/${id}/submit`, {
        diplomaHerkomst: 'digitaal',
        uren: policy - 1,
        aanvullendeScholing: false,
        scholingPunten: 4,
      });
      expect(punten.body.type).toBe('/problems/scholing-incompleet');
      expect(
        (
          await me.post(`/api/v1/applications/${id}/submit`, {
            diplomaHerkomst: 'digitaal',
            uren: policy - 1,
            aanvullendeScholing: false,
          })
        ).status,
      ).toBe(200);
    },
  );

  it('when rule 1 fails, then 400 validation naming uren', async () => {
    const { me, id } = await draft(system, 'intake');
    const res = await me.post(`/api/v1/applications/${id}/submit`, { diplomaHerkomst: 'digitaal', uren: 0 });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['uren']);
  });

  it.each([
    ['uren as a string', { diplomaHerkomst: 'digitaal', uren: '3000' }, 'validation', 'uren'],
    ['fractional uren', { diplomaHerkomst: 'digitaal', uren: 10.5 }, 'validation', 'uren'],
    ['uren past a 32-bit integer', { diplomaHerkomst: 'digitaal', uren: 2 ** 31 }, 'validation', 'uren'],
    ['documents not an array', { diplomaHerkomst: 'digitaal', uren: 3000, documents: 'x' }, 'validation', 'documents'],
    [
      'aanvullendeScholing as a string below the threshold',
      { diplomaHerkomst: 'digitaal', uren: 100, aanvullendeScholing: 'true', scholingPunten: 3 },
      'scholing-incompleet',
      'aanvullendeScholing',
    ],
    [
      'fractional scholingPunten below the threshold',
      { diplomaHerkomst: 'digitaal', uren: 100, aanvullendeScholing: true, scholingPunten: 1.5 },
      'scholing-incompleet',
      'scholingPunten',
    ],
    [
      'scholingPunten past a 32-bit integer',
      { diplomaHerkomst: 'digitaal', uren: 100, aanvullendeScholing: true, scholingPunten: 2 ** 40 },
      'validation',
      'scholingPunten',
    ],
  ])('when %s, then 400 %s naming the field and the application stays Concept', async (_name, body, slug, field) => {
    const { me, id } = await draft(system, 'intake');
    const res = await me.post(`/api/v1/applications/${id}/submit`, body);
    expect(res.status).toBe(400);
    expect(res.body.type).toBe(`/problems/${slug}`);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect((await me.get(`/api/v1/applications/${id}`)).body.status.tag).toBe('Concept');
  });

  it(
    'when the submit is for another document of the caller in the wrong category, ' +
      'then 400 naming that entry and nothing is linked',
    async () => {
      const { me, id } = await draft(system, 'intake');
      const overig = await system.documents.upload(me.subject, 'intake', 'overig');
      const res = await me.post(`/api/v1/applications/${id}/submit`, {
        diplomaHerkomst: 'handmatig',
        uren: 3000,
        documents: [
          { categoryId: 'diploma', channel: 'post' },
          { categoryId: 'diploma', channel: 'digitaal', documentId: overig },
        ],
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        expect.objectContaining({ field: 'documents[1].documentId', code: 'invalid-document' }),
      ]);
      expect(await system.documents.statusOf(me.subject, overig)).toBe('ontvangen');
    },
  );

  it('when a herregistratie is submitted with werkervaring, then it is linked; without it 400', async () => {
    const { me, id } = await draft(system, 'herregistratie', '900000001');
    expect((await me.post(`/api/v1/applications/${id}/submit`, { uren: 100 })).status).toBe(400);
    const doc = await system.documents.upload(me.subject, 'herregistratie', 'werkervaring');
    const res = await me.post(`/api/v1/applications/${id}/submit`, {
      uren: 100,
      documents: [{ categoryId: 'werkervaring', channel: 'digitaal', documentId: doc }],
    });
    expect(res.status).toBe(200);
    expect(await system.documents.statusOf(me.subject, doc)).toBe('gekoppeld');
  });

  it(
    'when a write of submit fails, then nothing of it stays: a Concept, no link job, ' + 'no event (ADR 0253)',
    async () => {
      const { me, id } = await draft(system, 'intake');
      const doc = await system.documents.upload(me.subject, 'intake', 'diploma');
      const db = system.apps.db;
      // The outbox refuses this application's event: the last write of the transaction, after the link job's.
      await sql`CREATE FUNCTION refuse_submitted_event() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.envelope->'data'->>'applicationId' = ${sql.lit(id)} THEN RAISE EXCEPTION 'refused by the test'; END IF;
        RETURN NEW;
      END $$`.execute(db);
      await sql`CREATE TRIGGER refuse_submitted_event BEFORE INSERT ON outbox
      FOR EACH ROW EXECUTE FUNCTION refuse_submitted_event()`.execute(db);
      try {
        const res = await me.post(`/api/v1/applications/${id}/submit`, {
          diplomaHerkomst: 'handmatig',
          uren: 3000,
          documents: [{ categoryId: 'diploma', channel: 'digitaal', documentId: doc }],
        });
        expect(res.status).toBe(500);
      } finally {
        await sql`DROP TRIGGER refuse_submitted_event ON outbox`.execute(db);
        await sql`DROP FUNCTION refuse_submitted_event()`.execute(db);
      }
      const { rows } = await sql<{
        status_tag: string;
        referentie: string | null;
        submitted_at: Date | null;
        link_jobs: number;
        events: number;
      }>`SELECT status_tag, referentie, submitted_at,
        (SELECT count(*)::int FROM document_link_jobs WHERE application_id = ${id}::uuid) AS link_jobs,
        (SELECT count(*)::int FROM outbox WHERE envelope->'data'->>'applicationId' = ${id}) AS events
      FROM applications WHERE id = ${id}::uuid`.execute(db);
      expect(rows).toEqual([{ status_tag: 'Concept', referentie: null, submitted_at: null, link_jobs: 0, events: 0 }]);
      expect(await system.documents.statusOf(me.subject, doc)).toBe('ontvangen');
      // Nothing half-written is in the way: the same submit succeeds once the outbox takes the event again.
      const again = await me.post(`/api/v1/applications/${id}/submit`, {
        diplomaHerkomst: 'handmatig',
        uren: 3000,
        documents: [{ categoryId: 'diploma', channel: 'digitaal', documentId: doc }],
      });
      expect(again.status).toBe(200);
    },
  );

  it(
    'when submitted, then application.submitted is published with its referentie and ' +
      'nothing of it stays in the outbox',
    async () => {
      const heard: Array<{ type: string; data: { applicationId: string; referentie: string } }> = [];
      const subscription = system.apps.events.subscribe(applications.events.submitted.subject, (m) =>
        heard.push(JSON.parse(m.payload)),
      );
      await system.apps.events.nc.flush();
      try {
        const { me, id } = await draft(system, 'intake');
        const res = await me.post(`/api/v1/applications/${id}/submit`, { diplomaHerkomst: 'digitaal', uren: 3000 });
        expect(res.status).toBe(200);
        const event = await eventually(async () => heard.find((e) => e.data.applicationId === id));
        expect(event).toMatchObject({
          type: 'application.submitted',
          data: { applicationId: id, referentie: res.body.referentie },
        });
        // The relay deletes the row in the transaction that published it.
        await eventually(async () => {
          const { rows } = await sql<{
            n: number;
          }>`SELECT count(*)::int AS n FROM outbox WHERE envelope->'data'->>'applicationId' = ${id}`.execute(
            system.apps.db,
          );
          return rows[0]!.n === 0 ? true : undefined;
        });
      } finally {
        subscription.unsubscribe();
      }
    },
  );
});
