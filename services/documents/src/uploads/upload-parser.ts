import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multer, { MulterError, type StorageEngine } from 'multer';
import { DomainError } from '@register/problem';
import { discardRequestBody } from '@register/service-kit';
import { SNIFF_BYTES } from './content-type';

/** A file part written to a temp file while its size, sha256 and first bytes were taken on the way. */
export interface SpooledFile {
  path: string;
  sizeBytes: number;
  sha256: string;
  head: Buffer;
  originalName: string;
}

/** Decides, from the fields that arrived before the file, the byte limit (or throws a 403/400 early). */
export type AdmitFile = (fieldsSoFar: Record<string, unknown>) => number;

/** multer's own request and response types (Express's), taken from multer so this file needs no express. */
type UploadHandler = ReturnType<ReturnType<typeof multer>['single']>;
type MultipartRequest = Parameters<UploadHandler>[0];
type MultipartResponse = Parameters<UploadHandler>[1];

/** What a multipart upload carried: its text fields (unvalidated) and the spooled file part, if any. */
export interface ReceivedForm {
  fields: Record<string, unknown>;
  file: SpooledFile | null;
}

const payloadTooLarge = () => new DomainError('payload-too-large', 'The file is larger than this category allows.');

/** Counts, hashes and keeps the head; errors as soon as the limit is passed, so the rest is never written. */
class Measure extends Transform {
  sizeBytes = 0;
  readonly hash = createHash('sha256');
  private readonly headChunks: Buffer[] = [];
  private headBytes = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.sizeBytes += chunk.length;
    if (this.sizeBytes > this.maxBytes) return cb(payloadTooLarge());
    this.hash.update(chunk);
    if (this.headBytes < SNIFF_BYTES) {
      const part = chunk.subarray(0, SNIFF_BYTES - this.headBytes);
      this.headChunks.push(Buffer.from(part));
      this.headBytes += part.length;
    }
    cb(null, chunk);
  }

  get head(): Buffer {
    return Buffer.concat(this.headChunks);
  }
}

async function removeQuietly(filePath: string): Promise<void> {
  await unlink(filePath).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
}

/** A streaming multer engine: never memoryStorage; every failure path removes the temp file it wrote. */
function spoolStorage(tmpDir: string, admit: AdmitFile): StorageEngine {
  return {
    _handleFile(req, file, cb) {
      let maxBytes: number;
      try {
        maxBytes = admit({ ...(req.body as Record<string, unknown> | undefined) });
      } catch (err) {
        file.stream.resume();
        return cb(err);
      }
      const filePath = path.join(tmpDir, `upload-${randomUUID()}`);
      const measure = new Measure(maxBytes);
      pipeline(file.stream, measure, createWriteStream(filePath, { flags: 'wx' }))
        .then(() => {
          // busboy truncates at multer's ceiling instead of failing: a truncated part is too large.
          if ((file.stream as { truncated?: boolean }).truncated) throw payloadTooLarge();
          const spooled: SpooledFile = {
            path: filePath,
            sizeBytes: measure.sizeBytes,
            sha256: measure.hash.digest('hex'),
            head: measure.head,
            originalName: file.originalname,
          };
          cb(null, { path: filePath, size: measure.sizeBytes, spooled } as Partial<Express.Multer.File>);
        })
        .catch((err: Error) => {
          void removeQuietly(filePath).finally(() => cb(err));
        });
    },
    _removeFile(_req, file, cb) {
      if (!file.path) return cb(null);
      removeQuietly(file.path).then(() => cb(null), cb);
    },
  };
}

export interface ReceiveOptions {
  tmpDir: string;
  /** Hard ceiling for any file: the largest category. */
  maxFileBytes: number;
  admit: AdmitFile;
}

/** Bytes allowed in a body beyond the file: the multipart framing and the few small fields. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

function toDomainError(err: unknown): Error {
  if (!(err instanceof MulterError)) return err instanceof Error ? err : new Error('the upload failed', { cause: err });
  if (err.code === 'LIMIT_FILE_SIZE') return payloadTooLarge();
  return new DomainError('validation', 'The multipart form is invalid.', [
    { field: err.field ?? 'file', code: err.code, detail: err.message },
  ]);
}

/**
 * Receives a multipart upload with multer (every limit set explicitly: its defaults are Infinity) and the
 * spooling engine. Rejects with a domain error (413, 400, or what `admit` threw); the temp file is then gone.
 */
export async function receiveUpload(
  req: MultipartRequest,
  res: MultipartResponse,
  options: ReceiveOptions,
): Promise<ReceivedForm> {
  // A declared length beyond any category is answered 413 at once, before any of it is spooled.
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > options.maxFileBytes + FORM_OVERHEAD_BYTES) {
    // Read on (up to the largest upload) instead of closing: the client (the gateway) then reads the 413
    // rather than a reset, which a proxy answers as a failed service (503).
    discardRequestBody(req, options.maxFileBytes);
    throw payloadTooLarge();
  }
  const upload = multer({
    storage: spoolStorage(options.tmpDir, options.admit),
    // Browsers send UTF-8 file names without a charset parameter.
    defParamCharset: 'utf8',
    limits: {
      fileSize: options.maxFileBytes,
      files: 1,
      fields: 8,
      parts: 9,
      fieldNameSize: 64,
      fieldSize: 512,
      headerPairs: 20,
      fieldNestingDepth: 0,
      fieldArrayIndexLimit: 0,
    },
  }).single('file');
  await new Promise<void>((resolve, reject) =>
    upload(req, res, (err?: unknown) => (err === undefined ? resolve() : reject(toDomainError(err)))),
  );
  const file: SpooledFile | null = (req.file as { spooled?: SpooledFile } | undefined)?.spooled ?? null;
  return { fields: { ...(req.body as Record<string, unknown> | undefined) }, file };
}
