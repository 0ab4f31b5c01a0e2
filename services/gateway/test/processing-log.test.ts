import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { eventually } from '@register/testkit';
import type { ZgwSimulator } from '@register/zgw-sim';
import { startMirroredSystem, type MirroredSystem } from './support/mirrored-system';
import { users } from './support/system';
import { call as callGateway } from './support/through-gateway';

// Issue 24, ADR 0182: the processing log of the whole system (every service a process, mirroring on, a read's
// records through each service's spool as deployed, ADR 0269), read the way a practitioner reads it:
// `GET /api/v1/me/verwerkingen`.
let system: MirroredSystem;
let sim: ZgwSimulator;
let gateway: string;

beforeAll(async () => {
  system = await startMirroredSystem('ldv', undefined, { spool: true });
  ({ sim, gateway } = system);
}, 180_000);

afterAll(async () => system?.close(), 60_000);

const call = (method: string, url: string, headers: Record<string, string>, body?: unknown) =>
  callGateway(gateway, method, url, headers, body);

/** A query on the audit service's database (its logbook table). */
async function auditDb<T>(query: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: system.databaseUrl('audit') });
  await db.connect();
  try {
    return await query(db);
  } finally {
    await db.end();
  }
}

interface Verwerking {
  verwerkingsactiviteit: { id: string; naam: string };
  tijdstip: string;
  status: string;
  door: string;
}

async function verwerkingen(me: Record<string, string>): Promise<Verwerking[]> {
  const res = await call('GET', '/api/v1/me/verwerkingen?limit=1000', me);
  expect(res.status).toBe(200);
  return res.body as Verwerking[];
}

/** `activity door` → how many records, e.g. `aanvragen zelf` → 4. */
function tally(records: Verwerking[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of records) {
    const key = `${r.verwerkingsactiviteit.id.split('/').pop()} ${r.door}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

function diploma(): FormData {
  const form = new FormData();
  form.set('wizardId', 'intake');
  form.set('categoryId', 'diploma');
  form.set('localId', randomUUID());
  form.set(
    'file',
    new Blob([Buffer.from(`%PDF-1.4\n${'x'.repeat(300)}\n%%EOF\n`)], { type: 'application/pdf' }),
    'diploma.pdf',
  );
  return form;
}

describe('the processing log through the whole system (issue 24)', () => {
  it(
    'when a practitioner reads, drafts, uploads and submits, the system links the upload, ' +
      'a beoordelaar lists and decides, the mirror works the case and a drafter opens its letter, ' +
      "then each processing is in that practitioner's verwerkingen once, with its activity and kind of actor, " +
      "within 5 s, the read naming the portal's operation as the foreign one; another practitioner sees none",
    async () => {
      const me = { 'X-Subject': '900000007', 'X-Role': 'drafter' };
      const other = { 'X-Subject': '900000008', 'X-Role': 'drafter' };
      // The portal's own operation came with the read: the record names it as the foreign operation.
      const portalTrace = randomUUID().replace(/-/g, '');
      const portalSpan = portalTrace.slice(0, 16);
      const traceparent = `00-${portalTrace}-${portalSpan}-01`;
      expect((await call('GET', '/api/v1/dashboard-view', { ...me, traceparent })).status).toBe(200);
      const created = await call('POST', '/api/v1/applications', me, { type: 'intake' });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      const draft = await call('PUT', `/api/v1/applications/${id}`, me, {
        draft: { stap: 1 },
        stepIndex: 1,
        stepCount: 3,
      });
      expect(draft.status).toBe(204);
      const upload = await call('POST', '/api/v1/uploads', me, diploma());
      expect(upload.status).toBe(201);
      const submit = await call('POST', `/api/v1/applications/${id}/submit`, me, {
        diplomaHerkomst: 'handmatig',
        uren: 3000,
        documents: [{ categoryId: 'diploma', channel: 'digitaal', documentId: upload.body.documentId }],
      });
      expect(submit.status).toBe(200);
      const referentie = submit.body.referentie as string;
      // The mirror's first pass ended: the zaak holds its status, initiator and document.
      await eventually(async () => {
        const [v] = sim.state.zakenWithIdentificatie(referentie);
        return v && v.statussen.length === 1 && v.rollen.length === 1 && v.zaakinformatieobjecten.length === 1
          ? v
          : undefined;
      }, 30_000);

      const queue = await call('GET', '/api/v1/werkvoorraad', users.beoordelaar);
      expect(queue.status).toBe(200);
      const caseId = queue.body.find((c: { status: { referentie: string } }) => c.status.referentie === referentie)?.id;
      const besluit = await call('POST', `/api/v1/beoordeling/${caseId}/besluit`, users.beoordelaar, {
        besluit: 'toekennen',
      });
      expect(besluit.status).toBe(200);
      await eventually(async () => {
        const [v] = sim.state.zakenWithIdentificatie(referentie);
        return v && v.statussen.length === 2 ? v : undefined;
      }, 30_000);
      const letter = await eventually(async () => {
        const res = await call('GET', `/api/v1/brief?referentie=${referentie}`, users.drafter);
        return res.status === 200 ? res : undefined;
      }, 30_000);
      expect(letter.status).toBe(200);

      const expected = {
        'inzage-registratie zelf': 1,
        'aanvragen zelf': 4,
        'aanvragen systeem': 1,
        'beoordelen medewerker': 2,
        'zaakspiegeling systeem': 2,
        'besluitbrief systeem': 1,
        'besluitbrief medewerker': 1,
      };
      const records = await eventually(async () => {
        const found = await verwerkingen(me);
        return found.length >= 12 ? found : undefined;
      }, 5000);
      expect(tally(records)).toEqual(expected);
      expect(records.every((r) => r.status === 'Ok')).toBe(true);
      // Newest first.
      const times = records.map((r) => r.tijdstip);
      expect([...times].sort().reverse()).toEqual(times);
      expect(await verwerkingen(other)).toEqual([]);
      const dashboard = await auditDb((db) =>
        db.query('select trace_id, foreign_trace_id, foreign_span_id from logbook where name = $1', [
          'GET /api/v1/dashboard-view',
        ]),
      );
      expect(dashboard.rows).toEqual([
        { trace_id: portalTrace, foreign_trace_id: portalTrace, foreign_span_id: portalSpan },
      ]);
    },
    180_000,
  );

  it(
    'when a write is refused (a second submit: 409) ' +
      'or only reads activity-free data, then nothing is logged for it',
    async () => {
      const me = { 'X-Subject': '900000009', 'X-Role': 'drafter' };
      const created = await call('POST', '/api/v1/applications', me, { type: 'intake' });
      expect(created.status).toBe(201);
      const body = {
        diplomaHerkomst: 'handmatig',
        uren: 3000,
        documents: [{ categoryId: 'diploma', channel: 'post' }],
      };
      const first = await call('POST', `/api/v1/applications/${created.body.id}/submit`, me, body);
      expect(first.status).toBe(200);
      const second = await call('POST', `/api/v1/applications/${created.body.id}/submit`, me, body);
      expect(second.status).toBe(409);
      // Processing no one's personal data: the register of activities and the caller's capabilities.
      expect((await call('GET', '/api/v1/verwerkingsactiviteiten', me)).status).toBe(200);
      expect((await call('GET', '/api/v1/me', me)).status).toBe(200);
      // The mirror's pass on this case is the last processing to be logged: once it is in, the rest has been too.
      const records = await eventually(async () => {
        const found = await verwerkingen(me);
        return tally(found)['zaakspiegeling systeem'] === 1 ? found : undefined;
      }, 30_000);
      expect(tally(records)).toEqual({ 'aanvragen zelf': 2, 'zaakspiegeling systeem': 1 });
    },
    120_000,
  );

  it(
    'when the applications service is killed right after it answered a read, ' +
      'then after its restart that read is in the verwerkingen once',
    async () => {
      const me = { 'X-Subject': '900000010', 'X-Role': 'drafter' };
      expect((await call('GET', '/api/v1/dashboard-view', me)).status).toBe(200);
      // Within the spool's 100 ms: the record is in its file, most likely not yet published.
      await system.system.kill('applications');
      await system.system.start('applications');
      const records = await eventually(async () => {
        const found = await verwerkingen(me);
        return found.length > 0 ? found : undefined;
      }, 30_000);
      expect(tally(records)).toEqual({ 'inzage-registratie zelf': 1 });
    },
    120_000,
  );

  it('no BSN is stored in the logbook: every data subject is a 64-hex pseudonym', async () => {
    const { rows } = await auditDb((db) =>
      db.query<{ subject: string }>('select data_subject_id as subject from logbook'),
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.subject))).toBe(true);
    const dump = await auditDb((db) =>
      db.query<{ text: string }>('select string_agg(l::text, chr(10)) as text from logbook l'),
    );
    for (const bsn of ['900000007', '900000009']) expect(dump.rows[0]!.text).not.toContain(bsn);
  });
});
