import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createDatabase, migrateToLatest } from '@register/service-kit';
import { asService, asUser, createTestDatabase, natsUrl, practitioner, removeDurableConsumers, TEST_SECRET, testS3 } from '@register/testkit';
// The real neighbours, started in-process from their own createApp/start functions (no doubles).
import { migrations as referenceMigrations } from '../../../reference/migrations';
import { createApp as createReferenceApp } from '../../../reference/src/app';
import type { ReferenceDb } from '../../../reference/src/data-access/reference.tables';
import { seedReference } from '../../../reference/src/seed/seed';
import { documentsConfigSchema } from '../../../documents/src/config';
import { startDocuments as startDocumentsService, type DocumentsService } from '../../../documents/src/service';
import { logger, RestartableServer, settle } from './harness';

export interface Neighbour {
  url: string;
  server: RestartableServer;
  close(): Promise<void>;
}

export async function startReference(): Promise<Neighbour & { setFlag(key: string, enabled: boolean): Promise<void> }> {
  const testDb = await createTestDatabase('reference');
  const database = createDatabase<ReferenceDb>(testDb.url, logger);
  await migrateToLatest(database.db, referenceMigrations, logger);
  await seedReference(database.db);
  const app = createReferenceApp({ db: database.db, logger, clock: { now: () => new Date() }, internalSecret: TEST_SECRET, readiness: {} });
  const server = new RestartableServer(app);
  await server.start();
  return {
    url: server.url,
    server,
    async setFlag(key, enabled) {
      const res = await fetch(`${server.url}/api/v1/admin/flags/${key}`, {
        method: 'PUT',
        headers: { ...asUser(practitioner('100000001', 'admin')), 'content-type': 'application/json' },
        body: JSON.stringify({ enabled }),
      });
      if (res.status !== 204) throw new Error(`setting flag ${key} answered ${res.status}`);
    },
    async close() {
      await server.stop();
      await database.close();
      await settle();
      await testDb.drop();
    },
  };
}

export interface DocumentsNeighbour extends Neighbour {
  service: DocumentsService;
  upload(owner: string, wizardId: string, categoryId: string): Promise<string>;
  statusOf(owner: string, documentId: string): Promise<string | null>;
}

/** A small real PDF; the documents service checks the bytes' type. */
export function pdfBytes(): Buffer {
  return Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
}

export async function startDocuments(): Promise<DocumentsNeighbour> {
  const testDb = await createTestDatabase('documents');
  const s3 = testS3();
  const tmpDir = mkdtempSync(path.join(os.tmpdir(), 'applications-docs-'));
  const consumer = `documents_${randomUUID().slice(0, 8)}`;
  const config = documentsConfigSchema.parse({
    PORT: '0',
    DATABASE_URL: testDb.url,
    NATS_URL: natsUrl(),
    INTERNAL_IDENTITY_SECRET: TEST_SECRET,
    LOG_LEVEL: 'silent',
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY: s3.accessKey,
    S3_SECRET_KEY: s3.secretKey,
    S3_BUCKET: `applications-${randomUUID().slice(0, 8)}`,
    UPLOAD_TMP_DIR: tmpDir,
    SWEEP_INTERVAL_MS: String(3600_000),
    SWEEP_MIN_AGE_MS: String(3600_000),
    // Its own durable consumer: test files run side by side on one NATS and must not take each other's events.
    APPLICATION_EVENTS_CONSUMER: consumer,
  });
  const service = await startDocumentsService(config, logger);
  const server = new RestartableServer(service.app);
  await server.start();
  return {
    url: server.url,
    server,
    service,
    async upload(owner, wizardId, categoryId) {
      const form = new FormData();
      form.set('wizardId', wizardId);
      form.set('categoryId', categoryId);
      form.set('file', new Blob([new Uint8Array(pdfBytes())], { type: 'application/pdf' }), 'bewijs.pdf');
      const res = await fetch(`${server.url}/api/v1/uploads`, { method: 'POST', headers: asUser(practitioner(owner)), body: form });
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { documentId: string }).documentId;
    },
    async statusOf(owner, documentId) {
      const res = await fetch(`${server.url}/internal/documents/lookup`, {
        method: 'POST',
        headers: { ...asServiceHeaders(), 'content-type': 'application/json' },
        body: JSON.stringify({ owner, documentIds: [documentId] }),
      });
      const body = (await res.json()) as { documents: Array<{ linkedApplicationId: string | null }> };
      const doc = body.documents[0];
      return doc ? (doc.linkedApplicationId ? 'gekoppeld' : 'ontvangen') : null;
    },
    async close() {
      await server.stop();
      for (const c of service.closers) await c.close();
      await settle();
      await testDb.drop();
      await removeDurableConsumers(natsUrl(), [consumer]);
      rmSync(tmpDir, { recursive: true, force: true });
    },
  };
}

const asServiceHeaders = () => asService('applications-test');
