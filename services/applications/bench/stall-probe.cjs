// A preload (NODE_OPTIONS="--require …/stall-probe.cjs", with BENCH_CPU_PROF_DIR set) that writes what stops a
// process's event loop to <dir>/<service>-<pid>.stalls.jsonl, one line each, with the wall-clock time (ms since the
// epoch, to set beside BENCH_TRACE's requests): garbage collections of 3 ms or more, and event-loop lags of 40 ms or
// more (a 20 ms tick that came late). ADR 0280 found the submit bench's stall with it and `--trace-opt`.
const { PerformanceObserver, performance } = require('node:perf_hooks');
const { appendFileSync, mkdirSync } = require('node:fs');
const path = require('node:path');

const dir = process.env.BENCH_CPU_PROF_DIR;
if (dir) {
  mkdirSync(dir, { recursive: true });
  const service = /services\/(\w+)\//.exec(process.argv[1] ?? '')?.[1] ?? 'node';
  const file = path.join(dir, `${service}-${process.pid}.stalls.jsonl`);
  const write = (line) => appendFileSync(file, `${JSON.stringify(line)}\n`);
  const kinds = { 1: 'scavenge', 2: 'minor-mark-sweep', 4: 'mark-compact', 8: 'incremental', 16: 'weak-callbacks' };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.duration < 3) continue;
      const kind = kinds[entry.detail?.kind] ?? String(entry.detail?.kind);
      const heapMiB = Math.round(process.memoryUsage().heapUsed / 1048576);
      write({
        t: Math.round(performance.timeOrigin + entry.startTime),
        kind,
        ms: Number(entry.duration.toFixed(1)),
        heapMiB,
      });
    }
  }).observe({ entryTypes: ['gc'] });
  const TICK_MS = 20;
  let last = Date.now();
  setInterval(() => {
    const now = Date.now();
    if (now - last >= TICK_MS + 40) write({ t: last, kind: 'lag', ms: now - last - TICK_MS });
    last = now;
  }, TICK_MS).unref();
}
