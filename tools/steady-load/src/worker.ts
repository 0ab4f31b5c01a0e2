import http from 'node:http';
import v8 from 'node:v8';
import type { LoadPlan, LoadResult } from './plan';

// Each answer arrives as off-heap Buffers; the generator drops them at once, but V8 counts them as external
// memory and, with a young generation that hardly fills, answered that with a full collection every second.
// As in the gateway (services/gateway/src/proxy/memory.ts): a scavenge once ~4 MiB of them are young.
v8.setFlagsFromString('--scavenger-max-new-space-capacity-mb=1');

async function run(plan: LoadPlan): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const target = new URL(plan.url);
  const latencies: number[] = [];
  const trace: Array<[number, number]> | null = plan.trace ? [] : null;
  let errors = 0;
  const prepared = plan.requests.map(
    ({ method = 'GET', path = target.pathname + target.search, headers = {}, body }) => ({
      method,
      path,
      body,
      headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
    }),
  );
  let t0 = performance.now();
  const send = (i: number, measured: boolean) =>
    new Promise<void>((resolve) => {
      const { method, path, headers, body } = prepared[i % prepared.length]!;
      const started = performance.now();
      const req = http.request({ host: target.hostname, port: target.port, method, path, headers, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          const ms = performance.now() - started;
          if (measured) {
            latencies.push(ms);
            trace?.push([Math.round(started - t0), Math.round(ms * 100) / 100]);
            if ((res.statusCode ?? 500) >= 400) errors += 1;
          }
          resolve();
        });
      });
      req.on('error', () => {
        if (measured) errors += 1;
        resolve();
      });
      req.end(body);
    });
  const pending: Array<Promise<void>> = [];
  const spacing = 1000 / plan.rate;
  const start = t0;
  for (let i = 0; i < plan.warmup + plan.total; i++) {
    const due = i < plan.warmup ? start + i * spacing : t0 + (i - plan.warmup) * spacing;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    if (i === plan.warmup) {
      // The measured part starts: the parent reads what the processes under load have used so far, and the first
      // measured request waits until it has (so none of them can count in that reading), then the measured
      // requests keep their spacing from there.
      await measuringStarts();
      t0 = performance.now();
    }
    pending.push(send(i, i >= plan.warmup));
  }
  await Promise.all(pending);
  agent.destroy();
  return { latencies, errors, elapsedMs: performance.now() - t0, epoch: performance.timeOrigin + t0, trace };
}

/** Tells the parent the measured requests begin and waits for its answer (`onMeasuring` has run). */
function measuringStarts(): Promise<void> {
  return new Promise((resolve) => {
    process.once('message', () => resolve());
    process.send!({ measuring: true });
  });
}

process.once('message', (plan) => {
  void run(plan as LoadPlan).then((result) => process.send!(result, () => process.disconnect()));
});
