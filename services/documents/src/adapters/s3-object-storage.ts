import { createReadStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { pipeline } from 'node:stream/promises';
import * as Minio from 'minio';
import { DomainError } from '@register/problem';
import type { ObjectStorage } from '../uploads/object-storage';

export interface StorageConfig {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
  /** Idle socket time-out of one S3 request. */
  timeoutMs?: number;
}

/** The S3 adapter of the storage port, with what only the composition root needs: the bucket made, readiness. */
export interface S3ObjectStorage extends ObjectStorage {
  ensureBucket(): Promise<void>;
  ready(): Promise<boolean>;
}

function unavailable(err: unknown): DomainError {
  return Object.assign(new DomainError('unavailable', 'The document store cannot be reached right now.'), {
    cause: err,
  });
}

/** Transport failures (no S3 answer at all) become 503; S3 error answers stay what they are. */
function isTransportError(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code ?? '';
  return [
    'ECONNREFUSED',
    'ECONNRESET',
    'ETIMEDOUT',
    'EHOSTUNREACH',
    'ENOTFOUND',
    'EAI_AGAIN',
    'EPIPE',
    'ESOCKETTIMEDOUT',
  ].includes(code);
}

/** Streams a spooled file to a presigned PUT URL with its exact Content-Length. */
function putFile(
  target: URL,
  file: { filePath: string; sizeBytes: number; contentType: string },
  timeoutMs: number,
): Promise<void> {
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise<void>((resolve, reject) => {
    const req = transport.request(target, {
      method: 'PUT',
      headers: { 'content-length': String(file.sizeBytes), 'content-type': file.contentType },
      timeout: timeoutMs,
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('S3 request timed out'), { code: 'ETIMEDOUT' })));
    req.on('response', (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode && res.statusCode < 300
          ? resolve()
          : reject(unavailable(new Error(`S3 PUT answered ${res.statusCode}`))),
      );
      res.on('error', (err) => reject(unavailable(err)));
    });
    pipeline(createReadStream(file.filePath), req).catch((err: unknown) => reject(unavailable(err)));
  });
}

function minioClient(config: StorageConfig): Minio.Client {
  const url = new URL(config.endpoint);
  const useSSL = url.protocol === 'https:';
  return new Minio.Client({
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: config.accessKey,
    secretKey: config.secretKey,
    // A fixed region means no bucket-location round trip (and presigning works offline).
    region: config.region,
    pathStyle: true,
  });
}

/** Document bytes in an S3 bucket (MinIO in production, s3rver embedded), through the minio client. */
export function createObjectStorage(config: StorageConfig): S3ObjectStorage {
  const client = minioClient(config);
  const timeoutMs = config.timeoutMs ?? 30_000;
  const bucket = config.bucket;
  const guard = async <T>(op: () => Promise<T>): Promise<T> => {
    try {
      return await op();
    } catch (err) {
      throw isTransportError(err) ? unavailable(err) : err;
    }
  };

  return {
    async ensureBucket() {
      if (!(await client.bucketExists(bucket))) {
        await client.makeBucket(bucket, config.region).catch(async (err) => {
          if (!(await client.bucketExists(bucket))) throw err; // created concurrently is fine
        });
      }
    },

    // minio-js putObject reads an object up to its part size (64 MiB) into memory before one PUT, and
    // multipart needs ListMultipartUploads, which s3rver lacks. A presigned PUT streams the spooled file
    // with its exact Content-Length instead: constant memory on MinIO, S3 and s3rver alike.
    async put(key, filePath, sizeBytes, contentType) {
      let target: URL;
      try {
        target = new URL(await client.presignedPutObject(bucket, key, 15 * 60));
      } catch (err) {
        throw unavailable(err);
      }
      await putFile(target, { filePath, sizeBytes, contentType }, timeoutMs);
    },

    get: (key) =>
      guard(() => client.getObject(bucket, key)).catch((err: unknown) => {
        if ((err as { code?: string } | null)?.code === 'NoSuchKey') return null;
        throw err;
      }),

    remove: (key) => guard(() => client.removeObject(bucket, key)),

    async *list() {
      const stream = client.listObjectsV2(bucket, '', true);
      for await (const item of stream as AsyncIterable<{ name?: string; lastModified?: Date }>) {
        if (item.name) yield { key: item.name, lastModified: item.lastModified ?? new Date(0) };
      }
    },

    async abortIncompleteUploads(before) {
      const stale: string[] = [];
      try {
        const stream = client.listIncompleteUploads(bucket, '', true);
        for await (const upload of stream as AsyncIterable<{ key: string; initiated: Date }>) {
          if (upload.initiated < before) stale.push(upload.key);
        }
      } catch (err) {
        if ((err as { code?: string }).code === 'NotImplemented') return null;
        throw err;
      }
      for (const key of new Set(stale)) await client.removeIncompleteUpload(bucket, key);
      return stale.length;
    },

    async ready() {
      const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000).unref());
      return Promise.race([client.bucketExists(bucket).catch(() => false), timeout]);
    },
  };
}
