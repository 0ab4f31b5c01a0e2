import http from 'node:http';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import {
  asService,
  asUser,
  eventually,
  holdLock,
  practitioner,
  serve,
  startNeighbour,
  uniqueSubject,
  type LockHold,
} from '@register/testkit';
import type { AppDatabase } from '../src/database';
import { client } from './support/client';
import { startApplicationsSystem, type ApplicationsSystem } from './support/system';
import { startDocuments, startReference, type DocumentsNeighbour } from './support/neighbours';

/**
 * Crash-safe submit: the documents service is killed (SIGKILL) in the middle of its link transaction (after the
 * applications service committed), or is down before the submit, or the applications process itself is killed
 * between its commit and the link. Outcome: never linked while Concept, and eventually every document
 * gekoppeld, once.
 */
let reference: Awaited<ReturnType<typeof startReference>>;
let documents: DocumentsNeighbour;

beforeAll(async () => {
  [reference, documents] = await Promise.all([startReference(), startDocuments()]);
});
beforeEach(() => documents.start());
afterAll(async () => {
  await Promise.all([reference.close(), documents.close()]);
});

const startApps = (options: { database?: { url: string; drop(): Promise<void> }; env?: Record<string, string> } = {}) =>
  startApplicationsSystem({
    referenceUrl: reference.url,
    documentsUrl: documents.url,
    ...(options.database ? { database: options.database } : {}),
    ...(options.env ? { env: options.env } : {}),
  });

/**
 * Holds the documents' rows as another writer would (FOR UPDATE): the documents service's link transaction,
 * which locks them before linking, then waits inside it.
 */
const holdDocumentRows = (documentIds: string[]) =>
  holdLock(documents.databaseUrl, 'SELECT 1 FROM document WHERE id::text = ANY($1::text[]) FOR UPDATE', [documentIds]);

/** The documents service dies (SIGKILL) while a link transaction of it waits on `hold`; then the hold ends. */
async function killWhileLinking(hold: LockHold): Promise<void> {
  await hold.waiting();
  await documents.kill();
  await hold.release();
}

const jobCount = async (db: Kysely<AppDatabase> | pg.Pool) =>
  db instanceof pg.Pool
    ? (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM document_link_jobs')).rows[0]!.n
    : (await sql<{ n: number }>`SELECT count(*)::int AS n FROM document_link_jobs`.execute(db)).rows[0]!.n;

/**
 * A pass-through to the documents service that calls `onFirstLink` (synchronously, before forwarding) when the
 * first link call arrives, and forwards every request to the end even when its caller has gone away.
 */
async function linkRelay(
  target: string,
  onFirstLink: () => void,
): Promise<{ url: string; firstLink: Promise<void>; linkAnswers(): number[]; close(): Promise<void> }> {
  const answers: number[] = [];
  let arrived!: () => void;
  const firstLink = new Promise<void>((resolve) => (arrived = resolve));
  let seen = false;
  const server = http.createServer((req, res) => {
    const isLink = req.method === 'POST' && req.url === '/internal/links';
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    // The whole call is here before anything happens: a caller killed afterwards cannot cut it short.
    req.on('end', () => {
      if (isLink && !seen) {
        seen = true;
        onFirstLink();
        arrived();
      }
      const upstream = http.request(
        new URL(req.url ?? '/', target),
        { method: req.method, headers: req.headers },
        (answer) => {
          if (isLink) answers.push(answer.statusCode ?? 0);
          res.on('error', () => undefined);
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      upstream.end(Buffer.concat(chunks));
    });
  });
  const served = await serve(server);
  return { url: served.url, firstLink, linkAnswers: () => [...answers], close: served.close };
}

/** Holds the application's link job as another claimer would (FOR UPDATE): the loop skips it until released. */
async function holdLinkJob(db: Kysely<AppDatabase>, applicationId: string): Promise<{ release(): Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const held = new Promise<void>((resolve) => (locked = resolve));
  const transaction = db.transaction().execute(async (trx) => {
    await sql`SELECT 1 FROM document_link_jobs WHERE application_id = ${applicationId}::uuid FOR UPDATE`.execute(trx);
    locked();
    await released;
  });
  await held;
  return {
    async release() {
      release();
      await transaction;
    },
  };
}

async function prepare(apps: ApplicationsSystem, n = 1) {
  const subject = uniqueSubject();
  const me = client(apps.url, practitioner(subject));
  const id = (await me.post('/api/v1/applications', { type: 'intake' })).body.id as string;
  const docs: string[] = [];
  docs.push(await documents.upload(subject, 'intake', 'diploma'));
  for (let i = 1; i < n; i++) docs.push(await documents.upload(subject, 'intake', 'overig'));
  const body = {
    diplomaHerkomst: 'handmatig',
    uren: 3000,
    documents: docs.map((documentId, i) => ({
      categoryId: i === 0 ? 'diploma' : 'overig',
      channel: 'digitaal',
      documentId,
    })),
  };
  return { subject, me, id, docs, body };
}

describe('crash-safe submit', () => {
  it(
    'when the documents service is killed while linking, then submit still answers ' +
      '200 and after a restart every document is gekoppeld',
    async () => {
      // The link loop idles, so the link under way is the submit's own; the process started again links the rest.
      const apps = await startApps({ env: { LINK_POLL_INTERVAL_MS: '600000' } });
      let again: ApplicationsSystem | undefined;
      try {
        const { subject, me, id, docs, body } = await prepare(apps, 3);
        const hold = await holdDocumentRows(docs);
        const submit = me.post(`/api/v1/applications/${id}/submit`, body);
        await killWhileLinking(hold);
        const res = await submit;
        expect(res.status).toBe(200);
        expect(res.body.status.tag).toBe('Ingediend');
        expect(await jobCount(apps.db)).toBe(1); // the promise to link is durable
        // The killed link transaction committed nothing.
        await documents.start();
        for (const d of docs) expect(await documents.statusOf(subject, d)).toBe('ontvangen');
        await apps.stop();
        again = await startApps({ database: { url: apps.databaseUrl, drop: async () => undefined } });
        await eventually(async () => ((await jobCount(again!.db)) === 0 ? true : undefined));
        for (const d of docs) expect(await documents.statusOf(subject, d)).toBe('gekoppeld');
        const detail = await client(again.url, practitioner(subject)).get(`/api/v1/applications/${id}`);
        expect(detail.body.status).toMatchObject({ tag: 'Ingediend', manual: false });
      } finally {
        await again?.stop();
        await apps.close();
      }
    },
  );

  it(
    'when the documents service is down before the submit, then 503, the application ' +
      'stays Concept and nothing is linked',
    async () => {
      const apps = await startApps();
      try {
        const { subject, me, id, docs, body } = await prepare(apps);
        await documents.stop();
        const res = await me.post(`/api/v1/applications/${id}/submit`, body);
        expect(res.status).toBe(503);
        expect(res.body.type).toBe('/problems/unavailable');
        expect((await me.get(`/api/v1/applications/${id}`)).body.status.tag).toBe('Concept');
        await documents.start();
        expect(await documents.statusOf(subject, docs[0]!)).toBe('ontvangen');
        expect((await me.post(`/api/v1/applications/${id}/submit`, body)).status).toBe(200);
        expect(await documents.statusOf(subject, docs[0]!)).toBe('gekoppeld');
      } finally {
        await apps.close();
      }
    },
  );

  it(
    'when the applications process is killed (SIGKILL) between its commit and the ' +
      'link, then a new process links every document exactly once',
    async () => {
      // The applications service as its own process, its link calls passing a relay that stops the documents
      // service (SIGSTOP) the moment the first link call arrives: the link cannot complete, the commit is done.
      const relay = await linkRelay(documents.url, () => documents.pause());
      // Its link loop idle (10 min): the first link call is the submit's own, inside the request, never the loop's
      // (which would let the submit answer 200 before the kill). The new process gets a fast loop.
      const apps = await startNeighbour('applications', {
        env: { REFERENCE_URL: reference.url, DOCUMENTS_URL: relay.url, LINK_POLL_INTERVAL_MS: '600000' },
      });
      const db = new pg.Pool({ connectionString: apps.databaseUrl, max: 1 });
      // end() resolves before its connection has closed: the database's forced drop may cut it after the test.
      db.on('error', () => undefined);
      try {
        const subject = uniqueSubject();
        const me = client(apps.url, practitioner(subject));
        const id = (await me.post('/api/v1/applications', { type: 'intake' })).body.id as string;
        const docs = [
          await documents.upload(subject, 'intake', 'diploma'),
          await documents.upload(subject, 'intake', 'overig'),
        ];
        const body = {
          diplomaHerkomst: 'handmatig',
          uren: 3000,
          documents: docs.map((documentId, i) => ({
            categoryId: i === 0 ? 'diploma' : 'overig',
            channel: 'digitaal',
            documentId,
          })),
        };

        const submit = me.post(`/api/v1/applications/${id}/submit`, body).catch((err: unknown) => err);
        await relay.firstLink;
        await apps.kill();
        // The answer died with the process; the commit did not.
        expect(String(await submit)).toMatch(/fetch failed/);
        const { rows } = await db.query<{ status_tag: string; referentie: string; jobs: number }>(
          'SELECT status_tag, referentie, (SELECT count(*)::int FROM document_link_jobs ' +
            'WHERE application_id = $1) AS jobs FROM applications WHERE id = $1',
          [id],
        );
        expect(rows).toEqual([
          { status_tag: 'Ingediend', referentie: expect.stringMatching(/^AV-\d{4}-\d{6}$/), jobs: 1 },
        ]);

        // The dead process's claim on the job runs out (its 30 s lease, moved forward here instead of waited for).
        await db.query('UPDATE document_link_jobs SET next_attempt_at = now() WHERE application_id = $1', [id]);
        await apps.start({ LINK_POLL_INTERVAL_MS: '200' });
        documents.resume();
        await eventually(async () => ((await jobCount(db)) === 0 ? true : undefined), 30_000);

        for (const d of docs) expect(await documents.statusOf(subject, d)).toBe('gekoppeld');
        // The dead process's link call reached the documents service after all, and so did the new one's: linked once.
        expect(relay.linkAnswers()).toEqual([200, 200]);
        const linked = await fetch(`${documents.url}/internal/applications/${id}/documents`, {
          headers: asService('applications'),
        });
        expect(((await linked.json()) as Array<{ documentId: string }>).map((d) => d.documentId).sort()).toEqual(
          [...docs].sort(),
        );
        expect((await me.get(`/api/v1/applications/${id}`)).body.status).toMatchObject({
          tag: 'Ingediend',
          referentie: rows[0]!.referentie,
          manual: false,
        });
      } finally {
        documents.resume();
        await db.end();
        await apps.close();
        await relay.close();
      }
    },
    120_000,
  );

  it(
    'when the link is refused for good (the owner deleted the document meanwhile), ' +
      'then manual with reden documenten-niet-gekoppeld and no more retries',
    async () => {
      const apps = await startApps();
      try {
        const { subject, me, id, docs, body } = await prepare(apps);
        const hold = await holdDocumentRows(docs);
        const submit = me.post(`/api/v1/applications/${id}/submit`, body);
        await killWhileLinking(hold);
        expect((await submit).status).toBe(200);
        const job = await holdLinkJob(apps.db, id);
        await documents.start();
        const del = await fetch(`${documents.url}/api/v1/uploads/${docs[0]}`, {
          method: 'DELETE',
          headers: asUser(practitioner(subject)),
        });
        expect(del.status).toBe(204);
        await job.release();
        await eventually(async () => ((await jobCount(apps.db)) === 0 ? true : undefined));
        expect((await me.get(`/api/v1/applications/${id}`)).body.status).toMatchObject({
          tag: 'Ingediend',
          manual: true,
          reden: 'documenten-niet-gekoppeld',
        });
      } finally {
        await apps.close();
      }
    },
  );

  it(
    'when many submits run while the documents service flaps (killed three times, ' +
      'each in the middle of a link), then none stays unlinked and no Concept has a ' +
      'linked document',
    async () => {
      const apps = await startApps();
      try {
        // Uploads one after another: concurrent uploads are the documents service's own test.
        const prepared = [];
        for (let i = 0; i < 8; i++) prepared.push(await prepare(apps));
        const documentIds = prepared.flatMap((p) => p.docs);
        let hold = await holdDocumentRows(documentIds);
        const submits = Promise.all(prepared.map((p) => p.me.post(`/api/v1/applications/${p.id}/submit`, p.body)));
        // Each kill lands in a link: the submits' own, then the link loop's retries of the links a kill cut off.
        for (let kill = 1; kill <= 3; kill++) {
          await killWhileLinking(hold);
          await documents.start();
          if (kill < 3) hold = await holdDocumentRows(documentIds);
        }
        const results = await submits;
        for (const [i, r] of results.entries()) {
          const p = prepared[i]!;
          const tag = (await p.me.get(`/api/v1/applications/${p.id}`)).body.status.tag;
          if (r.status === 200) {
            expect(tag).toBe('Ingediend');
            await eventually(async () =>
              (await documents.statusOf(p.subject, p.docs[0]!)) === 'gekoppeld' ? true : undefined,
            );
          } else {
            expect(r.status).toBe(503);
            expect(tag).toBe('Concept');
            expect(await documents.statusOf(p.subject, p.docs[0]!)).toBe('ontvangen');
          }
        }
        expect(results.some((r) => r.status === 200)).toBe(true);
        await eventually(async () => ((await jobCount(apps.db)) === 0 ? true : undefined));
      } finally {
        await apps.close();
      }
    },
  );
});
