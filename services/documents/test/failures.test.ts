import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { freePort } from '@register/embedded';
import { createLogger } from '@register/service-kit';
import { asUser, practitioner, serve, TEST_SECRET, testS3, uniqueSubject } from '@register/testkit';
import { createApp } from '../src/app';
import { createObjectStorage } from '../src/data-access/object-storage';
import { pdf, startHarness, upload, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

describe('failures', () => {
  it('when the S3 endpoint is down, then 503 unavailable and nothing is recorded', async () => {
    const down = createObjectStorage({ endpoint: `http://127.0.0.1:${await freePort()}`, accessKey: 'x', secretKey: 'y', bucket: h.bucket, region: 'us-east-1' });
    const app = createApp({ config: { internalSecret: TEST_SECRET, uploadTmpDir: h.tmpDir }, db: h.service.db, storage: down, logger: createLogger('documents-test', 'silent'), clock: { now: () => new Date() } });
    const server = await serve(http.createServer(app));
    try {
      const rows = await h.rowCount();
      const res = await upload({ ...h, url: server.url }, practitioner(uniqueSubject()), { wizardId: 'intake', categoryId: 'overig', file: { bytes: pdf(), name: 'a.pdf' } });
      expect(res.status).toBe(503);
      expect((await res.json()).type).toBe('/problems/unavailable');
      expect(await h.rowCount()).toBe(rows);
      expect(h.tmpFiles()).toEqual([]);
      expect((await fetch(`${server.url}/health/ready`)).status).toBe(503);
    } finally {
      await server.close();
    }
  });

  it('when Postgres fails after the object was stored, then the object is removed again', async () => {
    await sql`CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$ LANGUAGE plpgsql`.execute(h.service.db);
    await sql`CREATE TRIGGER refuse_insert BEFORE INSERT ON document FOR EACH ROW EXECUTE FUNCTION refuse()`.execute(h.service.db);
    try {
      const keys = await h.objectKeys();
      const res = await upload(h, practitioner(uniqueSubject()), { wizardId: 'intake', categoryId: 'overig', file: { bytes: pdf(), name: 'a.pdf' } });
      expect(res.status).toBe(500);
      expect(await h.objectKeys()).toEqual(keys);
      expect(h.tmpFiles()).toEqual([]);
    } finally {
      await sql`DROP TRIGGER refuse_insert ON document`.execute(h.service.db);
    }
  });

  it('when an object has no document row, then the sweeper removes it and keeps the recorded ones', async () => {
    const owner = uniqueSubject();
    const kept = await (await upload(h, practitioner(owner), { wizardId: 'intake', categoryId: 'overig', file: { bytes: pdf(), name: 'a.pdf' } })).json();
    const s3 = testS3();
    const storage = createObjectStorage({ endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket: h.bucket, region: 'us-east-1' });
    const orphanFile = path.join(h.tmpDir, '..', `orphan-${randomUUID()}`);
    writeFileSync(orphanFile, pdf());
    const orphanKey = randomUUID();
    await storage.put(orphanKey, orphanFile, pdf().length, 'application/pdf');
    expect(await h.objectKeys()).toContain(orphanKey);
    const result = await h.service.sweep();
    expect(result.removedObjects).toBe(1);
    expect(result.abortedUploads === null || result.abortedUploads >= 0).toBe(true);
    const keys = await h.objectKeys();
    expect(keys).not.toContain(orphanKey);
    expect(keys.length).toBe(await h.rowCount());
    const content = await fetch(`${h.url}/api/v1/uploads/${kept.documentId}/content`, { headers: asUser(practitioner(owner)) });
    expect(content.status).toBe(200);
  });
});
