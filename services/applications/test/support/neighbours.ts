import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  asUser,
  natsUrl,
  practitioner,
  removeDurableConsumers,
  startNeighbour,
  removeBucket,
  testS3,
  type Neighbour,
} from '@register/testkit';

/** The reference service, spawned from its build (`npx turbo run build` after changing it); `env` adds settings. */
export async function startReference(
  env: Record<string, string> = {},
): Promise<Neighbour & { setFlag(key: string, enabled: boolean): Promise<void> }> {
  const reference = await startNeighbour('reference', { env });
  return Object.assign(reference, {
    async setFlag(key: string, enabled: boolean) {
      const res = await fetch(`${reference.url}/api/v1/admin/flags/${key}`, {
        method: 'PUT',
        headers: { ...asUser(practitioner('100000001', 'admin')), 'content-type': 'application/json' },
        body: JSON.stringify({ enabled }),
      });
      if (res.status !== 204) throw new Error(`setting flag ${key} answered ${res.status}`);
    },
  });
}

export interface DocumentsNeighbour extends Neighbour {
  upload(owner: string, wizardId: string, categoryId: string): Promise<string>;
  /** The upload's status as its owner sees it (`ontvangen`, `gekoppeld`), null when the owner has no such upload. */
  statusOf(owner: string, documentId: string): Promise<string | null>;
}

/** A small real PDF; the documents service checks the bytes' type. */
export function pdfBytes(): Buffer {
  return Buffer.from(
    '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << ' +
      '/Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  );
}

/**
 * The documents service, spawned from its build, with a bucket, a spool directory and a durable consumer of
 * its own (test files run side by side on one NATS and must not take each other's events); `env` adds settings.
 */
export async function startDocuments(env: Record<string, string> = {}): Promise<DocumentsNeighbour> {
  const s3 = testS3();
  const tmpDir = mkdtempSync(path.join(os.tmpdir(), 'applications-docs-'));
  const consumer = `documents_${randomUUID().slice(0, 8)}`;
  const bucket = `applications-${randomUUID().slice(0, 8)}`;
  const documents = await startNeighbour('documents', {
    env: {
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY: s3.accessKey,
      S3_SECRET_KEY: s3.secretKey,
      S3_BUCKET: bucket,
      UPLOAD_TMP_DIR: tmpDir,
      SWEEP_INTERVAL_MS: String(3600_000),
      SWEEP_MIN_AGE_MS: String(3600_000),
      APPLICATION_EVENTS_CONSUMER: consumer,
      ...env,
    },
  });
  // The owner's uploads by documentId, with the localId the status route answers by.
  const localIds = new Map<string, string>();
  const close = documents.close.bind(documents);
  return Object.assign(documents, {
    async upload(owner: string, wizardId: string, categoryId: string) {
      const localId = randomUUID();
      const form = new FormData();
      form.set('wizardId', wizardId);
      form.set('categoryId', categoryId);
      form.set('localId', localId);
      form.set('file', new Blob([new Uint8Array(pdfBytes())], { type: 'application/pdf' }), 'bewijs.pdf');
      const res = await fetch(`${documents.url}/api/v1/uploads`, {
        method: 'POST',
        headers: asUser(practitioner(owner)),
        body: form,
      });
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
      const { documentId } = (await res.json()) as { documentId: string };
      localIds.set(documentId, localId);
      return documentId;
    },
    async statusOf(owner: string, documentId: string) {
      const localId = localIds.get(documentId);
      if (!localId) throw new Error(`${documentId} was not uploaded through this neighbour`);
      const res = await fetch(`${documents.url}/api/v1/uploads/status?localIds=${localId}`, {
        headers: asUser(practitioner(owner)),
      });
      if (res.status !== 200) throw new Error(`upload status answered ${res.status}`);
      const item = ((await res.json()) as { results: Array<{ status: string }> }).results[0];
      return !item || item.status === 'onbekend' ? null : item.status;
    },
    async close() {
      await close();
      await removeDurableConsumers(natsUrl(), [consumer], env['EVENTS_STREAM']);
      await removeBucket(bucket);
      rmSync(tmpDir, { recursive: true, force: true });
    },
  });
}
