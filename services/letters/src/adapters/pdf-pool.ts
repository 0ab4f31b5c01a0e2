import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { DomainError } from '@register/problem';
import type { Logger } from '@register/service-kit';
import type { PdfJob, PdfRenderer } from '../rendering/pdf-renderer';

export interface PdfPoolOptions {
  /** Worker threads (each renders one PDF at a time). */
  size: number;
  /** Jobs waiting beyond this are refused at once (503), so a flood cannot pile up memory. */
  maxQueue: number;
  /** A render taking longer is abandoned (its worker replaced) and answered 503. */
  timeoutMs: number;
  logger: Logger;
}

interface Task {
  id: number;
  job: PdfJob;
  resolve: (pdf: Buffer) => void;
  reject: (err: unknown) => void;
  timer?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  task: Task | null;
}

/**
 * The compiled worker next to this file, or (tests run the sources) the TypeScript one, which Node strips of its types.
 */
function workerEntry(): { file: string; execArgv: string[] } {
  const js = path.join(__dirname, 'pdf-worker.js');
  if (existsSync(js)) return { file: js, execArgv: [] };
  return { file: path.join(__dirname, 'pdf-worker.ts'), execArgv: ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON'] };
}

/**
 * Renders PDFs on worker threads, so a burst of letters never blocks the event loop that serves the other
 * routes; at most `size` render at once and the rest wait in a bounded queue. Workers start on first use and
 * a crashed or stuck one is replaced.
 */
export class PdfWorkerPool implements PdfRenderer {
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: PdfPoolOptions) {}

  render(job: PdfJob): Promise<Buffer> {
    if (this.closed) return Promise.reject(new DomainError('unavailable', 'The PDF renderer is shutting down.'));
    if (this.queue.length >= this.options.maxQueue)
      return Promise.reject(new DomainError('unavailable', 'Too many letters are being rendered; retry shortly.'));
    return new Promise<Buffer>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, job, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(new DomainError('unavailable', 'The PDF renderer stopped.'));
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot =
        this.slots.find((s) => s.task === null) ?? (this.slots.length < this.options.size ? this.spawn() : undefined);
      if (!slot) return;
      const task = this.queue.shift()!;
      slot.task = task;
      task.timer = setTimeout(
        () => this.fail(slot, new DomainError('unavailable', 'Rendering the letter took too long.')),
        this.options.timeoutMs,
      );
      slot.worker.postMessage({ id: task.id, job: task.job });
    }
  }

  private spawn(): Slot {
    const entry = workerEntry();
    const worker = new Worker(entry.file, {
      execArgv: entry.execArgv,
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    const slot: Slot = { worker, task: null };
    worker.on('message', (message: { id: number; ok: boolean; pdf?: Uint8Array; error?: string }) => {
      const task = slot.task;
      if (!task || task.id !== message.id) return;
      clearTimeout(task.timer);
      slot.task = null;
      if (message.ok && message.pdf)
        task.resolve(Buffer.from(message.pdf.buffer, message.pdf.byteOffset, message.pdf.byteLength));
      else task.reject(new Error(`PDF rendering failed: ${message.error ?? 'unknown error'}`));
      this.dispatch();
    });
    worker.on('error', (err) => this.fail(slot, err));
    worker.on('exit', (code) => {
      if (this.slots.includes(slot)) this.fail(slot, new Error(`PDF worker exited with code ${code}`));
    });
    // An idle pool must not keep the process alive.
    worker.unref();
    this.slots.push(slot);
    return slot;
  }

  /** The slot's worker is gone (crash, timeout): its task fails, the slot is dropped and a new worker takes over. */
  private fail(slot: Slot, err: unknown): void {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    this.slots.splice(index, 1);
    const task = slot.task;
    slot.task = null;
    if (task) {
      clearTimeout(task.timer);
      this.options.logger.warn({ err }, 'PDF worker failed; replacing it');
      task.reject(err);
    }
    void slot.worker.terminate();
    if (!this.closed) this.dispatch();
  }
}
