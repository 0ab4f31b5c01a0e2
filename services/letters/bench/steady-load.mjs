// A fixed-rate (open-loop) load: one request every 1000/rate ms, evenly spaced, whatever the answers do
// (autocannon's rate fires each second's quota in a burst, which measures bursts, not a steady rate).
import http from 'node:http';

export async function steadyLoad({ url, rate, seconds, request = () => ({}) }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const target = new URL(url);
  const latencies = [];
  let errors = 0;
  const send = (i) =>
    new Promise((resolve) => {
      const { method = 'GET', path = target.pathname + target.search, headers = {}, body } = request(i);
      const started = performance.now();
      const req = http.request({ host: target.hostname, port: target.port, method, path, headers: body ? { ...headers, 'content-length': Buffer.byteLength(body) } : headers, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - started);
          if (res.statusCode >= 400) errors += 1;
          resolve();
        });
      });
      req.on('error', () => {
        errors += 1;
        resolve();
      });
      req.end(body);
    });
  const pending = [];
  const t0 = performance.now();
  for (let i = 0; i < rate * seconds; i++) {
    const wait = t0 + (i * 1000) / rate - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    pending.push(send(i));
  }
  await Promise.all(pending);
  agent.destroy();
  return summary(latencies, errors);
}

/** p50/p99 of a list of latencies in ms. */
export function summary(latencies, errors = 0) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { requests: sorted.length, errors, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? NaN };
}
