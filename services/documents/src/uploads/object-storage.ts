import type { Readable } from 'node:stream';
import type { Logger } from '@register/service-kit';

export interface StoredObject {
  key: string;
  lastModified: Date;
}

/**
 * The port to the document bytes (an S3 bucket). Uploads put them, content reads them; the deletes, a
 * deleted case and the sweeper remove them. A store that cannot be reached throws `DomainError('unavailable')`.
 */
export interface ObjectStorage {
  /** Streams a spooled file of known size into one object; never holds the file in memory. */
  put(key: string, filePath: string, sizeBytes: number, contentType: string): Promise<void>;
  /** The object's bytes; null when no object has this key (a delete removed it between row and read). */
  get(key: string): Promise<Readable | null>;
  remove(key: string): Promise<void>;
  list(): AsyncIterable<StoredObject>;
  /** Aborts multipart uploads started before `before`; null when the endpoint cannot list them (s3rver). */
  abortIncompleteUploads(before: Date): Promise<number | null>;
}

/** After the row is gone: bytes that cannot be removed now are an orphan that the sweeper removes later. */
export async function removeOrLeaveToSweeper(
  deps: { storage: ObjectStorage; logger: Logger },
  objectKey: string,
): Promise<void> {
  await deps.storage
    .remove(objectKey)
    .catch((err: unknown) => deps.logger.warn({ err, objectKey }, 'object not removed; left for the sweeper'));
}
