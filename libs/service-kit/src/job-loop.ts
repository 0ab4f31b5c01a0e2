import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Logger } from './logger';

/** A piece of background work a service runs beside its HTTP server; the kit starts and stops it. */
export interface Job {
  readonly name: string;
  start(): Promise<void> | void;
  /** Resolves once the pass under way (if any) has finished; nothing starts afterwards. */
  stop(): Promise<void>;
  /** Readiness: false while the job cannot do its work (a consumer that lost its stream). */
  ready?(): boolean;
}

export interface JobLoopOptions {
  name: string;
  logger: Logger;
  /**
   * One pass: claim a batch (FOR UPDATE SKIP LOCKED, or a lease), work it, and say how many items it took.
   * A full batch runs the next pass at once; fewer wait `intervalMs`. A throw is logged and backs off.
   */
  pass: () => Promise<number>;
  batchSize: number;
  intervalMs: number;
  /** Back-off after a failed pass: doubles from `intervalMs` up to this (default 30 s). */
  maxBackoffMs?: number;
  /** Run a first pass at start (default true). */
  runAtStart?: boolean;
}

/**
 * The one loop every background worker runs on (outbox relay, document linker, sweeper, mirror,
 * reconciler): one pass at a time, `kick()` for "work arrived", back-off on failure, and a stop that
 * waits for the pass under way.
 */
export class JobLoop implements Job {
  readonly name: string;
  private timer: NodeJS.Timeout | null = null;
  private timerDue: number | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  /** A `kickSoon` during the pass under way: the next pass waits this long after it (null: none asked). */
  private againSoonMs: number | null = null;
  private stopped = false;
  private failures = 0;

  constructor(private readonly options: JobLoopOptions) {
    this.name = options.name;
  }

  start(): void {
    this.stopped = false;
    if (this.options.runAtStart === false) this.schedule(this.options.intervalMs);
    else this.kick();
  }

  /** Runs a pass now, or right after the one under way. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.clearTimer();
    this.running = this.runPass().finally(() => {
      this.running = null;
      const soon = this.againSoonMs;
      this.againSoonMs = null;
      // A `kick` during the pass runs the next at once; a `kickSoon` after its delay, unless the pass failed: then the
      // back-off stands (a notification does not bring the retry forward).
      if (this.again) {
        this.again = false;
        this.kick();
      } else if (soon !== null && this.failures === 0) this.schedule(soon, true);
    });
  }

  /**
   * Runs a pass after `delayMs` unless one is due sooner (coalesces bursts of notifications). During a pass, the
   * next one waits `delayMs` after it, so that under a steady stream of work the passes do not run back to back,
   * each taking the little that arrived during the one before (a pass costs the same for one item as for many).
   * While the loop backs off after a failed pass, the retry keeps its time: otherwise, with NATS down, every commit's
   * notification would run a pass that fails (and logs) again.
   */
  kickSoon(delayMs: number): void {
    if (this.stopped) return;
    if (this.running) {
      this.againSoonMs = Math.min(this.againSoonMs ?? delayMs, delayMs);
      return;
    }
    if (this.failures > 0) return;
    this.schedule(delayMs, true);
  }

  /** Waits for the pass under way, if any (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.clearTimer();
    await this.idle();
  }

  private async runPass(): Promise<void> {
    let next = this.options.intervalMs;
    try {
      const taken = await this.options.pass();
      this.failures = 0;
      if (taken >= this.options.batchSize) next = 0;
    } catch (err) {
      this.failures += 1;
      next = Math.min(this.options.intervalMs * 2 ** Math.min(this.failures, 10), this.options.maxBackoffMs ?? 30_000);
      this.options.logger.warn(
        { err, job: this.name, failures: this.failures, retryInMs: next },
        'job pass failed; will retry',
      );
    }
    if (!this.again) this.schedule(next);
    // A full batch runs the next pass at once, whatever a `kickSoon` asked meanwhile.
    if (next === 0) this.againSoonMs = null;
  }

  private schedule(delayMs: number, onlyIfSooner = false): void {
    if (this.stopped) return;
    if (onlyIfSooner && this.timerDue !== null && this.timerDue <= Date.now() + delayMs) return;
    this.clearTimer();
    this.timerDue = Date.now() + delayMs;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerDue = null;
      this.kick();
    }, delayMs);
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerDue = null;
  }
}

/** How a leased job table is laid out: a key column, a due time and an attempt counter. */
export interface LeaseTable {
  table: string;
  key: string;
  dueColumn: string;
  attemptsColumn: string;
}

/**
 * Claims up to `limit` due rows by pushing their due time a lease ahead (and counting the attempt). SKIP
 * LOCKED keeps two workers (or replicas) from claiming the same row; the lease makes a crashed worker's row
 * due again without a transaction held open across the work. `where` narrows the claim (one key, say).
 */
export async function claimLeased<Row>(
  db: Kysely<unknown>,
  t: LeaseTable,
  options: { limit: number; leaseMs: number; where?: RawBuilder<unknown> },
): Promise<Row[]> {
  const [table, key, due, attempts] = [
    sql.table(t.table),
    sql.ref(t.key),
    sql.ref(t.dueColumn),
    sql.ref(t.attemptsColumn),
  ];
  const where = options.where ? sql`AND ${options.where}` : sql``;
  const { rows } = await sql<Row>`
    UPDATE ${table} SET ${attempts} = ${attempts} + 1, ${due} = now() + ${`${options.leaseMs} milliseconds`}::interval
    WHERE ${key} IN (
      SELECT ${key} FROM ${table} WHERE ${due} <= now() ${where}
      ORDER BY ${due} LIMIT ${options.limit} FOR UPDATE SKIP LOCKED)
    RETURNING *`.execute(db);
  return rows;
}

/** Exponential back-off for the n-th failed attempt of one item: base × 2^(n−1), at most `maxMs`. */
export function backoffMs(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, Math.min(attempt - 1, 20)), maxMs);
}
