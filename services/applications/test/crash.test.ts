import http from 'node:http';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { asService, asUser, eventually, practitioner, serve, startNeighbour, uniqueSubject } from '@register/testkit';
import type { DocumentsPort } from '../src/context';
import type { AppDatabase } from '../src/database';
import { client } from './support/client';
import { startApplications, type ApplicationsHarness } from './support/harness';
import { startDocuments, startReference, type DocumentsNeighbour } from './support/neighbours';

/**
 * Crash-safe submit: the documents service is killed (SIGKILL) at the moment the applications service links
 * (after its commit), or is down before the submit, or the applications process itself is killed between its
 * commit and the link. Outcome: never linked while Concept, and eventually every document gekoppeld, once.
 */
let reference: Awaited<ReturnType<typeof startReference>>;
let documents: DocumentsNeighbour;
let killOnLink = false;
let killedAtLink: Promise<void> = Promise.resolve();
let markKilled: () => void = () => undefined;

/**
 * The next link call kills the documents process first. That call may be a submit's own or the link loop's,
 * which can claim the job while the submit is still in flight and so kill after the submit has answered:
 * `killedAtLink` settles once the kill is done, and a test restarts the documents service only after it
 * (a restart before it would find the process still up, and the kill would then leave it down for good).
 */
function armKillOnLink(): void {
  killOnLink = true;
  killedAtLink = new Promise<void>((resolve) => (markKilled = resolve));
}

beforeAll(async () => {
  [reference, documents] = await Promise.all([startReference(), startDocuments()]);
});
beforeEach(() => documents.start());
afterEach(() => {
  killOnLink = false;
});
afterAll(async () => {
  await Promise.all([reference.close(), documents.close()]);
});

/** The real documents adapter; once armed (`armKillOnLink`), the next link call first kills the documents process. */
function killingAtLink(real: DocumentsPort): DocumentsPort {
  return {
    categories: (wizardId, answers) => real.categories(wizardId, answers),
    checkLink: (request) => real.checkLink(request),
    documentsOf: (applicationId) => real.documentsOf(applicationId),
    async link(applicationId, owner, refs) {
      if (killOnLink) {
        killOnLink = false;
        await documents.kill();
        markKilled();
      }
      return real.link(applicationId, owner, refs);
    },
  };
}

const startApps = (database?: { url: string; drop(): Promise<void> }) =>
  startApplications({
    referenceUrl: reference.url,
    documentsUrl: documents.url,
    documents: killingAtLink,
    ...(database ? { database } : {}),
  });

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

async function prepare(apps: ApplicationsHarness, n = 1) {
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
  it('when the documents service is killed while linking, then submit still answers 200 and after a restart every document is gekoppeld', async () => {
    const apps = await startApps();
    try {
      const { subject, me, id, docs, body } = await prepare(apps, 3);
      armKillOnLink();
      const res = await me.post(`/api/v1/applications/${id}/submit`, body);
      expect(res.status).toBe(200);
      expect(res.body.status.tag).toBe('Ingediend');
      expect(await jobCount(apps.db)).toBe(1); // the promise to link is durable
      await killedAtLink;
      await documents.start();
      await eventually(async () => ((await jobCount(apps.db)) === 0 ? true : undefined));
      for (const d of docs) expect(await documents.statusOf(subject, d)).toBe('gekoppeld');
      expect((await me.get(`/api/v1/applications/${id}`)).body.status).toMatchObject({
        tag: 'Ingediend',
        manual: false,
      });
    } finally {
      await apps.close();
    }
  });

  it('when the documents service is down before the submit, then 503, the application stays Concept and nothing is linked', async () => {
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
  });

  it('when the applications process is killed (SIGKILL) between its commit and the link, then a new process links every document exactly once', async () => {
    // The applications service as its own process, its link calls passing a relay that stops the documents
    // service (SIGSTOP) the moment the first link call arrives: the link cannot complete, the commit is done.
    const relay = await linkRelay(documents.url, () => documents.pause());
    // Its link loop idle (10 min): the first link call is the submit's own, inside the request, never the loop's
    // (which would let the submit answer 200 before the kill). The new process gets a fast loop.
    const apps = await startNeighbour('applications', {
      env: { REFERENCE_URL: reference.url, DOCUMENTS_URL: relay.url, LINK_POLL_INTERVAL_MS: '600000' },
    });
    const db = new pg.Pool({ connectionString: apps.databaseUrl, max: 1 });
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
        'SELECT status_tag, referentie, (SELECT count(*)::int FROM document_link_jobs WHERE application_id = $1) AS jobs FROM applications WHERE id = $1',
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
  }, 120_000);

  it('when the link is refused for good (the owner deleted the document meanwhile), then manual with reden documenten-niet-gekoppeld and no more retries', async () => {
    const apps = await startApps();
    try {
      const { subject, me, id, docs, body } = await prepare(apps);
      armKillOnLink();
      expect((await me.post(`/api/v1/applications/${id}/submit`, body)).status).toBe(200);
      await killedAtLink;
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
  });

  it('when many submits run while the documents service flaps, then none stays unlinked and no Concept has a linked document', async () => {
    const apps = await startApps();
    try {
      // Uploads one after another: concurrent uploads are the documents service's own test.
      const prepared = [];
      for (let i = 0; i < 8; i++) prepared.push(await prepare(apps));
      armKillOnLink();
      const results = await Promise.all(prepared.map((p) => p.me.post(`/api/v1/applications/${p.id}/submit`, p.body)));
      await killedAtLink;
      await documents.start();
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
      await eventually(async () => ((await jobCount(apps.db)) === 0 ? true : undefined));
    } finally {
      await apps.close();
    }
  });
});
