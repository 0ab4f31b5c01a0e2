import { fork } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { LoadPlan, LoadResult, PlannedRequest } from './plan';

export type { PlannedRequest } from './plan';

/** The built generator (also when this module runs from its sources, as in the tests). */
const WORKER = path.join(__dirname, '..', 'dist', 'worker.js');

export interface SteadyLoadOptions {
  /** Where the requests go: origin, and the path of a request that names none. */
  url: string;
  /** Requests per second, evenly spaced. */
  rate: number;
  seconds: number;
  /**
   * Seconds of the same load first, on the same connections, not measured. V8 keeps optimising a request path
   * (the services' and the generator's own) for 10–20 s of load; a fresh generator's first requests alone took
   * 20–30 ms.
   */
  warmSeconds?: number;
  /** The requests, taken in turn (request i is `requests[i % length]`); one GET of `url` without either. */
  requests?: PlannedRequest[];
  /**
   * Request i (the warm-up's first); called for every i before the load starts (the generator cannot call back into
   * this process).
   */
  request?: (i: number) => PlannedRequest;
  /**
   * Called when the measured requests begin (after the warm-up's last has gone out, or as the load starts without
   * one), and before the first of them goes out (the generator waits for it to return): where a bench reads the CPU
   * the processes under load have used, to count the measured requests' share alone (`machineCpuMicros`).
   */
  onMeasuring?: () => void;
}

export interface SteadyLoadLatencies {
  /** Every answered request's latency (ms), to pool the loads of several rounds into one summary. */
  latencies: number[];
}

export interface SteadyLoadSummary {
  requests: number;
  errors: number;
  p50: number;
  p99: number;
  max: number;
  /** Requests per second from the first request out to the last answer in (below `rate` when answers lag). */
  achievedRate?: number;
}

/**
 * A fixed-rate (open-loop) load: one request every 1000/rate ms, evenly spaced, whatever the answers do
 * (autocannon's rate option fires each connection's quota back to back at the start of every second: a burst,
 * not a steady rate). It runs in a child process of its own (worker.ts): a bench process holds the launcher,
 * PDF parsers and the rest, and its own major garbage collections (one every second under a 200 req/s load
 * of 25 KB answers, 60–80 ms of main thread each) delayed the reading of answers, so their latency was
 * counted against the services: the letters service's GET p99 through the gateway read 33–48 ms with the
 * generator in-process and 7–10 ms from this child, on the same system (ADR 0058).
 *
 * `BENCH_TRACE=<file>` appends every request's start (ms into the load) and latency as one JSON line per load.
 */
export async function steadyLoad(options: SteadyLoadOptions): Promise<SteadyLoadSummary & SteadyLoadLatencies> {
  const total = Math.round(options.rate * options.seconds);
  const warmup = Math.round(options.rate * (options.warmSeconds ?? 0));
  const requests =
    options.requests ??
    (options.request ? Array.from({ length: warmup + total }, (_, i) => options.request!(i)) : [{}]);
  const plan: LoadPlan = {
    url: options.url,
    rate: options.rate,
    total,
    warmup,
    requests,
    trace: Boolean(process.env['BENCH_TRACE']),
  };
  const result = await runInChild(plan, options.onMeasuring);
  if (process.env['BENCH_TRACE'])
    appendFileSync(
      process.env['BENCH_TRACE'],
      `${JSON.stringify({ url: options.url, rate: options.rate, epoch: result.epoch, trace: result.trace })}\n`,
    );
  return {
    ...summary(result.latencies, result.errors),
    achievedRate: total / (result.elapsedMs / 1000),
    latencies: result.latencies,
  };
}

function runInChild(plan: LoadPlan, onMeasuring?: () => void): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
    let result: LoadResult | null = null;
    child.on('message', (m: LoadResult | { measuring: true }) => {
      if ('measuring' in m) {
        onMeasuring?.();
        child.send({ measure: true });
      } else result = m;
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      result ? resolve(result) : reject(new Error(`the load generator exited with ${code} before it reported`)),
    );
    child.send(plan);
  });
}

/** p50/p99/max of a list of latencies in ms. */
export function summary(latencies: number[], errors = 0): SteadyLoadSummary {
  const sorted = Float64Array.from(latencies).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { requests: sorted.length, errors, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? NaN };
}

/** CPU time (user and system) a process has used so far, in microseconds, from `/proc` (Linux clock ticks of 10 ms). */
export function processCpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/**
 * CPU time (user and system, µs) used so far by every process whose command name is `comm` (`postgres`,
 * `nats-server`): a server of the machine the bench runs on, which the bench did not start. Each process counts
 * with its reaped children (`cutime`, `cstime`), so a PostgreSQL backend that ends between two readings stays in the
 * sum through the postmaster that waited for it. Reads 0 where no such process runs (a server on another machine).
 */
export function commandCpuMicros(comm: string): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const open = stat.indexOf('(');
    const close = stat.lastIndexOf(')');
    if (stat.slice(open + 1, close) !== comm) continue;
    const fields = stat.slice(close + 2).split(' ');
    // utime, stime, cutime, cstime: fields 14-17 of proc(5), 11-14 after the command.
    total += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10_000;
  }
  return total;
}

/**
 * CPU time (µs) used so far by each of `pids` (a bench's own processes, by name; 0 for one not running), and by the
 * machine's PostgreSQL (`postgres`) and NATS server (`nats`): read before and after a load, the difference divided
 * by its requests is each process's CPU per request.
 */
export function machineCpuMicros(pids: Record<string, number | undefined>): Record<string, number> {
  return {
    ...Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, pid ? processCpuMicros(pid) : 0])),
    postgres: commandCpuMicros('postgres'),
    nats: commandCpuMicros('nats-server'),
  };
}
