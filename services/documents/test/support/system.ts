import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { sql } from 'kysely';
import {
  asUser,
  natsUrl,
  practitioner,
  removeDurableConsumers,
  startService,
  removeBucket,
  testS3,
  type TestService,
} from '@register/testkit';
import type { Identity } from '@register/authz';
import type { Context } from '../../src/context';
import { start } from '../../src/main';

export const MIB = 1024 * 1024;

export interface DocumentsSystem extends TestService<Context> {
  tmpDir: string;
  bucket: string;
  objectKeys(): Promise<string[]>;
  rowCount(): Promise<number>;
  tmpFiles(): string[];
}

/**
 * The documents service as it runs in production (its own `runService`), on a database, a bucket, a spool
 * directory and a durable consumer of its own, with the real Postgres, NATS and S3. `env` adds settings.
 */
export async function startDocumentsSystem(env: Record<string, string> = {}): Promise<DocumentsSystem> {
  const s3 = testS3();
  const bucket = `documents-${randomUUID().slice(0, 8)}`;
  const tmpDir = mkdtempSync(path.join(os.tmpdir(), 'documents-spool-'));
  // Its own durable consumer: test files run side by side on one NATS and must not take each other's events.
  const consumer = `documents_${randomUUID().slice(0, 8)}`;
  const service = await startService(start, {
    name: 'documents',
    env: {
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY: s3.accessKey,
      S3_SECRET_KEY: s3.secretKey,
      S3_BUCKET: bucket,
      UPLOAD_TMP_DIR: tmpDir,
      SWEEP_INTERVAL_MS: String(3600_000),
      SWEEP_MIN_AGE_MS: '0',
      APPLICATION_EVENTS_CONSUMER: consumer,
      ...env,
    },
  });
  const { db, storage } = service.context;
  return {
    ...service,
    tmpDir,
    bucket,
    async objectKeys() {
      const keys: string[] = [];
      for await (const o of storage.list()) keys.push(o.key);
      return keys.sort();
    },
    async rowCount() {
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM document`.execute(db);
      return rows[0]?.n ?? -1;
    },
    tmpFiles: () => readdirSync(tmpDir),
    async close() {
      await service.close();
      await removeDurableConsumers(natsUrl(), [consumer]);
      // A system that shares another's bucket (env S3_BUCKET) leaves it to that one.
      if (!env['S3_BUCKET']) await removeBucket(bucket);
      rmSync(tmpDir, { recursive: true, force: true });
    },
  };
}

// ---- fixtures: real file formats, padded to a chosen size ----

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function pad(head: Buffer, size: number): Buffer {
  if (size < head.length) throw new Error(`fixture needs at least ${head.length} bytes`);
  return Buffer.concat([head, Buffer.alloc(size - head.length, 0x20)]);
}

/** A 1x1 PNG, padded after IEND to `size` bytes. */
export function png(size = 200): Buffer {
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  const idat = deflateSync(Buffer.from([0, 255, 0, 0]));
  const head = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return pad(head, size);
}

/** A small valid-looking PDF, padded with a comment to `size` bytes. */
export function pdf(size = 400): Buffer {
  const head = Buffer.from(
    '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << ' +
      '/Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n%',
  );
  return pad(head, size);
}

export function svg(): Buffer {
  return Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?>\n<!-- logo -->\n<svg xmlns="http://www.w3.org/2000/svg" ' +
      'width="10" height="10"><rect width="10" height="10"/></svg>\n',
  );
}

// ---- calls ----

export interface UploadOptions {
  wizardId?: string;
  categoryId?: string;
  localId?: string;
  applicationId?: string;
  file?: { bytes: Buffer; name: string; type?: string } | null;
}

export async function upload(h: { url: string }, identity: Identity | null, options: UploadOptions): Promise<Response> {
  const form = new FormData();
  for (const name of ['wizardId', 'categoryId', 'localId', 'applicationId'] as const) {
    const value = options[name];
    if (value !== undefined) form.append(name, value);
  }
  if (options.file)
    form.append(
      'file',
      new Blob([new Uint8Array(options.file.bytes)], { type: options.file.type ?? 'application/octet-stream' }),
      options.file.name,
    );
  return fetch(`${h.url}/api/v1/uploads`, { method: 'POST', headers: asUser(identity), body: form });
}

/** Uploads a PDF into intake/overig (multiple) and returns the 201 body. */
export async function uploadPdf(
  h: { url: string },
  subject: string,
  extra: Partial<UploadOptions> = {},
): Promise<{ documentId: string; [k: string]: unknown }> {
  const res = await upload(h, practitioner(subject), {
    wizardId: 'intake',
    categoryId: 'overig',
    file: { bytes: pdf(), name: 'bewijs.pdf', type: 'application/pdf' },
    ...extra,
  });
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { documentId: string };
}

declare global {
  interface Response {
    // Test bodies are asserted field by field; `unknown` would only add casts.

    json(): Promise<any>;
  }
}
