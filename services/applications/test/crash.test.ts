import { sql, type Kysely } from 'kysely';
import { asUser, eventually, practitioner, uniqueSubject } from '@register/testkit';
import type { DocumentsPort } from '../src/context';
import type { AppDatabase } from '../src/database';
import { client } from './support/client';
import { startApplications, type ApplicationsHarness } from './support/harness';
import { startDocuments, startReference, type DocumentsNeighbour } from './support/neighbours';

/**
 * Crash-safe submit: the documents service is killed (SIGKILL) at the moment the applications service links
 * (after its commit), or is down before the submit, or the applications service itself stops after
 * committing. Outcome: never linked while Concept, and eventually every document gekoppeld.
 */
let reference: Awaited<ReturnType<typeof startReference>>;
let documents: DocumentsNeighbour;
let killOnLink = false;

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

/** The real documents adapter; once `killOnLink` is set, the next link call first kills the documents process. */
function killingAtLink(real: DocumentsPort): DocumentsPort {
  return {
    categories: (wizardId, answers) => real.categories(wizardId, answers),
    checkLink: (request) => real.checkLink(request),
    documentsOf: (applicationId) => real.documentsOf(applicationId),
    async link(applicationId, owner, refs) {
      if (killOnLink) {
        killOnLink = false;
        await documents.kill();
      }
      return real.link(applicationId, owner, refs);
    },
  };
}

const startApps = (database?: { url: string; drop(): Promise<void> }) =>
  startApplications({ referenceUrl: reference.url, documentsUrl: documents.url, documents: killingAtLink, ...(database ? { database } : {}) });

const jobCount = async (db: Kysely<AppDatabase>) => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM document_link_jobs`.execute(db)).rows[0]!.n;

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
  const body = { diplomaHerkomst: 'handmatig', uren: 3000, documents: docs.map((documentId, i) => ({ categoryId: i === 0 ? 'diploma' : 'overig', channel: 'digitaal', documentId })) };
  return { subject, me, id, docs, body };
}

describe('crash-safe submit', () => {
  it('when the documents service is killed while linking, then submit still answers 200 and after a restart every document is gekoppeld', async () => {
    const apps = await startApps();
    try {
      const { subject, me, id, docs, body } = await prepare(apps, 3);
      killOnLink = true;
      const res = await me.post(`/api/v1/applications/${id}/submit`, body);
      expect(res.status).toBe(200);
      expect(res.body.status.tag).toBe('Ingediend');
      expect(await jobCount(apps.db)).toBe(1); // the promise to link is durable
      await documents.start();
      await eventually(async () => ((await jobCount(apps.db)) === 0 ? true : undefined));
      for (const d of docs) expect(await documents.statusOf(subject, d)).toBe('gekoppeld');
      expect((await me.get(`/api/v1/applications/${id}`)).body.status).toMatchObject({ tag: 'Ingediend', manual: false });
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

  it('when the applications service stops after committing, then a restarted instance links from the durable job', async () => {
    const first = await startApps();
    try {
      const { subject, me, id, docs, body } = await prepare(first);
      killOnLink = true;
      expect((await me.post(`/api/v1/applications/${id}/submit`, body)).status).toBe(200);
      await first.stop(); // the instance is gone; only its database remains
      await documents.start();
      expect(await documents.statusOf(subject, docs[0]!)).toBe('ontvangen');
      const second = await startApps({ url: first.databaseUrl, drop: async () => undefined });
      try {
        await eventually(async () => ((await documents.statusOf(subject, docs[0]!)) === 'gekoppeld' ? true : undefined));
        await eventually(async () => ((await jobCount(second.db)) === 0 ? true : undefined));
      } finally {
        await second.stop();
      }
    } finally {
      await first.close();
    }
  });

  it('when the link is refused for good (the owner deleted the document meanwhile), then manual with reden documenten-niet-gekoppeld and no more retries', async () => {
    const apps = await startApps();
    try {
      const { subject, me, id, docs, body } = await prepare(apps);
      killOnLink = true;
      expect((await me.post(`/api/v1/applications/${id}/submit`, body)).status).toBe(200);
      const job = await holdLinkJob(apps.db, id);
      await documents.start();
      const del = await fetch(`${documents.url}/api/v1/uploads/${docs[0]}`, { method: 'DELETE', headers: asUser(practitioner(subject)) });
      expect(del.status).toBe(204);
      await job.release();
      await eventually(async () => ((await jobCount(apps.db)) === 0 ? true : undefined));
      expect((await me.get(`/api/v1/applications/${id}`)).body.status).toMatchObject({ tag: 'Ingediend', manual: true, reden: 'documenten-niet-gekoppeld' });
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
      killOnLink = true;
      const results = await Promise.all(prepared.map((p) => p.me.post(`/api/v1/applications/${p.id}/submit`, p.body)));
      await documents.start();
      for (const [i, r] of results.entries()) {
        const p = prepared[i]!;
        const tag = (await p.me.get(`/api/v1/applications/${p.id}`)).body.status.tag;
        if (r.status === 200) {
          expect(tag).toBe('Ingediend');
          await eventually(async () => ((await documents.statusOf(p.subject, p.docs[0]!)) === 'gekoppeld' ? true : undefined));
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
