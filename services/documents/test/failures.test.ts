import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { asUser, eventually, holdLock, practitioner, testS3, uniqueSubject } from '@register/testkit';
import { sweepOrphans } from '../src/sweeper/sweep-orphans';
import { pdf, startDocumentsSystem, upload, type DocumentsSystem } from './support/system';

/** The advisory lock the refusing trigger waits for (a number of this file's own). */
const REFUSAL_LOCK = 280_077;

let h: DocumentsSystem;
beforeAll(async () => {
  h = await startDocumentsSystem();
});
afterAll(async () => {
  await h.close();
});

/** A TCP relay to the real S3 endpoint that can be cut: the store is then unreachable, as in an outage. */
async function s3Relay(): Promise<{ endpoint: string; cut(): Promise<void> }> {
  const target = new URL(testS3().endpoint);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 80), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    cut: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

/** Puts an object that no document row knows (a crash leftover) through the service's own store. */
async function putOrphan(service: DocumentsSystem): Promise<string> {
  // Outside the spool directory (the tests check it stays empty), in a directory of its own that goes again.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'documents-orphan-'));
  try {
    const orphanFile = path.join(dir, 'orphan.pdf');
    writeFileSync(orphanFile, pdf());
    const orphanKey = randomUUID();
    await service.context.storage.put(orphanKey, orphanFile, pdf().length, 'application/pdf');
    return orphanKey;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('failures', () => {
  it('when the S3 endpoint is down, then 503 unavailable and nothing is recorded', async () => {
    const relay = await s3Relay();
    const cut = await startDocumentsSystem({ S3_ENDPOINT: relay.endpoint, S3_BUCKET: h.bucket });
    try {
      await relay.cut();
      const rows = await cut.rowCount();
      const res = await upload(cut, practitioner(uniqueSubject()), {
        wizardId: 'intake',
        categoryId: 'overig',
        file: { bytes: pdf(), name: 'a.pdf' },
      });
      expect(res.status).toBe(503);
      expect((await res.json()).type).toBe('/problems/unavailable');
      expect(await cut.rowCount()).toBe(rows);
      expect(cut.tmpFiles()).toEqual([]);
      expect((await fetch(`${cut.url}/health/ready`)).status).toBe(503);
    } finally {
      await cut.close();
    }
  });

  it('when Postgres fails after the object was stored, then the object is removed again', async () => {
    // The refusal waits for a lock this test holds: while the row's insert waits there, the object is stored.
    await sql`CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN
      PERFORM pg_advisory_xact_lock(${sql.lit(REFUSAL_LOCK)}); RAISE EXCEPTION 'disk full';
      END $$ LANGUAGE plpgsql`.execute(h.context.db);
    await sql`CREATE TRIGGER refuse_insert BEFORE INSERT ON document FOR EACH ROW EXECUTE FUNCTION refuse()`.execute(
      h.context.db,
    );
    const hold = await holdLock(h.databaseUrl, 'SELECT pg_advisory_xact_lock($1)', [REFUSAL_LOCK]);
    try {
      const keys = await h.objectKeys();
      const answer = upload(h, practitioner(uniqueSubject()), {
        wizardId: 'intake',
        categoryId: 'overig',
        file: { bytes: pdf(), name: 'a.pdf' },
      });
      await hold.waiting();
      const stored = await h.objectKeys();
      expect(stored).toHaveLength(keys.length + 1);
      expect(stored).toEqual(expect.arrayContaining(keys));
      await hold.release();
      const res = await answer;
      expect(res.status).toBe(500);
      expect(await h.objectKeys()).toEqual(keys);
      expect(h.tmpFiles()).toEqual([]);
    } finally {
      await hold.release();
      await sql`DROP TRIGGER refuse_insert ON document`.execute(h.context.db);
      await sql`DROP FUNCTION refuse()`.execute(h.context.db);
    }
  });

  it('when a delete has removed the object but the row is still read, then content answers 404, not 500', async () => {
    // A delete commits the row's removal and then removes the object; a read that found the row in between meets
    // no object. Removing the object under a kept row makes that window stand still.
    const owner = uniqueSubject();
    const { documentId } = await (
      await upload(h, practitioner(owner), {
        wizardId: 'intake',
        categoryId: 'overig',
        file: { bytes: pdf(), name: 'a.pdf' },
      })
    ).json();
    const { rows } = await sql<{
      object_key: string;
    }>`SELECT object_key FROM document WHERE id = ${documentId}`.execute(h.context.db);
    await h.context.storage.remove(rows[0]!.object_key);
    const content = await fetch(`${h.url}/api/v1/uploads/${documentId}/content`, {
      headers: asUser(practitioner(owner)),
    });
    expect(content.status).toBe(404);
    expect(await content.text()).toBe('');
    // The delete that would have removed the row: the next tests count rows against objects.
    await sql`DELETE FROM document WHERE id = ${documentId}`.execute(h.context.db);
  });

  it('when an object has no document row, then the sweeper removes it and keeps the recorded ones', async () => {
    const owner = uniqueSubject();
    const kept = await (
      await upload(h, practitioner(owner), {
        wizardId: 'intake',
        categoryId: 'overig',
        file: { bytes: pdf(), name: 'a.pdf' },
      })
    ).json();
    const orphanKey = await putOrphan(h);
    expect(await h.objectKeys()).toContain(orphanKey);
    const result = await sweepOrphans(h.context, h.context.config.SWEEP_MIN_AGE_MS);
    expect(result.removedObjects).toBe(1);
    // Nothing here was uploaded in parts, so a store that lists unfinished uploads aborts none; the embedded
    // s3rver cannot list them at all, which the sweep reports as null.
    expect(result.abortedUploads).toBe(testS3().embedded ? null : 0);
    const keys = await h.objectKeys();
    expect(keys).not.toContain(orphanKey);
    expect(keys.length).toBe(await h.rowCount());
    const content = await fetch(`${h.url}/api/v1/uploads/${kept.documentId}/content`, {
      headers: asUser(practitioner(owner)),
    });
    expect(content.status).toBe(200);
  });

  it('when SWEEP_INTERVAL_MS passes, then the sweeper job removes an orphan on its own', async () => {
    // Nothing is uploaded here: with an age of 0 a sweep may take the object of an upload whose row is not written yet.
    const swept = await startDocumentsSystem({ SWEEP_INTERVAL_MS: '1000' });
    try {
      const orphanKey = await putOrphan(swept);
      expect(await swept.objectKeys()).toEqual([orphanKey]);
      await eventually(async () => ((await swept.objectKeys()).length === 0 ? true : undefined));
    } finally {
      await swept.close();
    }
  });
});
