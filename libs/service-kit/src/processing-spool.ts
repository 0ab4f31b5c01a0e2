import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import {
  MAX_RECORDS_PER_BATCH,
  processingBatch,
  processingRecord,
  type ProcessingRecordData,
} from '@register/contracts';
import type { EventPublisher } from './event-bus';
import { newEvent } from './events';
import type { Logger } from './logger';
import { enqueueEnvelopes, type WithOutbox } from './outbox';

/** One record in the spool: the id the logbook stores it under, and the record. */
export interface SpooledRecord {
  id: string;
  record: ProcessingRecordData;
}

export interface ProcessingSpoolOptions {
  /** The spool's own directory (one process at a time: a lock file says which). */
  dir: string;
  service: string;
  events: EventPublisher;
  /** Where what cannot be published at shutdown goes: the service's outbox, published by its relay later. */
  db: Kysely<WithOutbox>;
  logger: Logger;
  /** How often the records gathered are published (default 100 ms). */
  intervalMs?: number;
  /**
   * The most the spool holds unpublished (default 8 MiB): beyond it an append is refused and the read takes the way
   * without a spool, so a long outage of the stream cannot fill the pod's memory-backed emptyDir (ADR 0270).
   */
  maxBytes?: number;
}

const SEGMENT = /^\d{13}-\d{6}-[0-9a-f]{12}\.jsonl$/;

/**
 * A read's processing records, kept safe before its answer without a message to another process each (ADR 0269):
 * appended to a segment file of this service's spool (one write to the page cache, which a crash of the process
 * does not lose), published every `intervalMs` as batches of up to 100 records (`register.processing-batch.<service>`,
 * ADR 0268), and the segment deleted once the stream acknowledged all of it. A service that starts ships the
 * segments an earlier run left; a batch's `Nats-Msg-Id` is its segment's name and place, so a segment shipped twice
 * is dropped by the stream's duplicate window, and the logbook stores a record once by its id anyway. At shutdown
 * what the stream does not take goes to the outbox.
 */
export class ProcessingSpool {
  private fd: number | null = null;
  private current: { name: string; records: SpooledRecord[]; bytes: number } | null = null;
  /** What the segments hold, published or not yet deleted: what `maxBytes` bounds and the gauge shows. */
  private held = 0;
  private sequence = 0;
  private timer: NodeJS.Timeout | null = null;
  private shipping: Promise<void> | null = null;
  private stopped = false;
  private failures = 0;
  private retryAt = 0;
  private readonly lockFile: string;
  private readonly interval: number;
  private readonly maxBytes: number;

  constructor(private readonly options: ProcessingSpoolOptions) {
    this.lockFile = path.join(options.dir, 'lock');
    this.interval = options.intervalMs ?? 100;
    this.maxBytes = options.maxBytes ?? 8 * 1024 * 1024;
  }

  /** The bytes of records the spool holds that the stream has not acknowledged yet. */
  get bytesHeld(): number {
    return this.held;
  }

  /** Takes the directory (refused while another live process holds it) and ships what an earlier run left. */
  async start(): Promise<void> {
    mkdirSync(this.options.dir, { recursive: true, mode: 0o700 });
    this.lock();
    this.stopped = false;
    this.held = this.segments().reduce((sum, name) => sum + statSync(path.join(this.options.dir, name)).size, 0);
    await this.ship();
    this.timer = setInterval(() => {
      if (Date.now() >= this.retryAt) void this.ship();
    }, this.interval);
    this.timer.unref();
  }

  /**
   * Appends records to the current segment; returns once the kernel has them. Throws when it cannot (stopping, full,
   * a full disk), and the caller takes another way.
   */
  append(records: readonly SpooledRecord[]): void {
    if (this.stopped) throw new Error('the processing spool is stopped');
    if (records.length === 0) return;
    const text = records.map((r) => JSON.stringify(r)).join('\n') + '\n';
    const bytes = Buffer.byteLength(text);
    if (this.held + bytes > this.maxBytes) throw new Error('the processing spool is full');
    if (this.fd === null || this.current === null) this.open();
    writeSync(this.fd!, text);
    this.current!.records.push(...records);
    this.current!.bytes += bytes;
    this.held += bytes;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    // The pass under way, then one that closes the segment appended to meanwhile and ships it too.
    await this.shipping;
    await this.ship();
    // What the stream did not take: to the outbox, as single records under the same ids (the relay publishes
    // them; the logbook stores each once).
    for (const name of this.segments()) {
      const { records, bytes } = this.read(name);
      try {
        await enqueueEnvelopes(
          this.options.db,
          processingRecord(this.options.service).subject,
          records.map((r) => ({ ...newEvent('processing', r.record, null), id: r.id })),
        );
        unlinkSync(path.join(this.options.dir, name));
        this.held -= bytes;
      } catch (err) {
        this.options.logger.error({ err, segment: name }, 'processing records left in the spool for the next start');
      }
    }
    rmSync(this.lockFile, { force: true });
  }

  /** One pass at a time; a pass that fails is logged, and the next waits longer (up to 5 s). */
  private ship(): Promise<void> {
    this.shipping ??= this.shipAll()
      .then((shipped) => {
        this.failures = shipped ? 0 : this.failures + 1;
      })
      .catch((err: unknown) => {
        this.failures += 1;
        this.options.logger.warn({ err }, 'processing spool pass failed');
      })
      .finally(() => {
        this.retryAt = this.failures === 0 ? 0 : Date.now() + Math.min(this.interval * 2 ** this.failures, 5000);
        this.shipping = null;
      });
    return this.shipping;
  }

  /**
   * Publishes what earlier passes or runs left, oldest first, then closes the current segment and publishes it.
   * While the stream is away the current segment stays open and grows: one file, not one per pass.
   */
  private async shipAll(): Promise<boolean> {
    for (const name of this.segments()) {
      if (name === this.current?.name) continue;
      if (!(await this.shipSegment(name, this.read(name)))) return false;
    }
    const open = this.current;
    if (open === null) return true;
    closeSync(this.fd!);
    this.fd = null;
    this.current = null;
    return this.shipSegment(open.name, open);
  }

  private async shipSegment(
    name: string,
    { records, bytes }: { records: readonly SpooledRecord[]; bytes: number },
  ): Promise<boolean> {
    try {
      await this.publish(name, records);
    } catch (err) {
      this.options.logger.warn({ err, segment: name }, 'processing records not published yet; kept in the spool');
      return false;
    }
    unlinkSync(path.join(this.options.dir, name));
    this.held -= bytes;
    return true;
  }

  private async publish(name: string, records: readonly SpooledRecord[]): Promise<void> {
    const contract = processingBatch(this.options.service);
    const sends: Promise<void>[] = [];
    for (let at = 0; at < records.length; at += MAX_RECORDS_PER_BATCH) {
      const envelope = newEvent('processing-batch', { records: records.slice(at, at + MAX_RECORDS_PER_BATCH) }, null);
      const id = `${this.options.service}-${name}-${at}`;
      sends.push(this.options.events.publish(contract.subject, JSON.stringify(envelope), id));
    }
    await Promise.all(sends);
  }

  /** The closed segments, oldest first (the current one is closed before a pass). */
  private segments(): string[] {
    return readdirSync(this.options.dir)
      .filter((f) => SEGMENT.test(f))
      .sort();
  }

  /** A segment's records and size; a last line cut short by a crash of the machine is no record. */
  private read(name: string): { records: SpooledRecord[]; bytes: number } {
    const records: SpooledRecord[] = [];
    const text = readFileSync(path.join(this.options.dir, name), 'utf8');
    for (const line of text.split('\n')) {
      if (line.length === 0) continue;
      try {
        records.push(JSON.parse(line) as SpooledRecord);
      } catch {
        this.options.logger.error({ segment: name }, 'a line of a spool segment is no record; dropped');
      }
    }
    return { records, bytes: Buffer.byteLength(text) };
  }

  private open(): void {
    // In time order; the random part keeps batch ids apart across processes and replicas (they are `Nats-Msg-Id`s).
    const sequence = String(this.sequence++ % 1_000_000).padStart(6, '0');
    const name = `${Date.now()}-${sequence}-${randomBytes(6).toString('hex')}.jsonl`;
    this.fd = openSync(path.join(this.options.dir, name), 'wx', 0o600);
    this.current = { name, records: [], bytes: 0 };
  }

  /** The spool is one process's: a second one on the same directory would ship and delete the first's records. */
  private lock(): void {
    for (;;) {
      try {
        const fd = openSync(this.lockFile, 'wx', 0o600);
        writeSync(fd, String(process.pid));
        fsyncSync(fd);
        closeSync(fd);
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = Number(readFileSync(this.lockFile, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder))
        throw new Error(`LDV_SPOOL_DIR ${this.options.dir} is in use by process ${holder}`);
      unlinkSync(this.lockFile);
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
