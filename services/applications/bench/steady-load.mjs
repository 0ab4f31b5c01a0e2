// A fixed-rate (open-loop) load: one request every 1000/rate ms, evenly spaced, whatever the answers do.
// autocannon's rate option fires each connection's quota back to back at the start of every second, so
// its p99 at "200 req/s" measures a once-a-second burst of 200, not a steady 200 req/s.
import http from 'node:http';

export async function steadyLoad({ url, rate, seconds, request }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const target = new URL(url);
  const latencies = [];
  let errors = 0;
  let inFlight = 0;
  const total = rate * seconds;
  const send = (i) =>
    new Promise((resolve) => {
      const { method = 'GET', path = target.pathname + target.search, headers = {}, body } = request(i);
      const started = performance.now();
      inFlight += 1;
      const req = http.request({ host: target.hostname, port: target.port, method, path, headers: body ? { ...headers, 'content-length': Buffer.byteLength(body) } : headers, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - started);
          if (res.statusCode >= 400) errors += 1;
          inFlight -= 1;
          resolve();
        });
      });
      req.on('error', () => {
        errors += 1;
        inFlight -= 1;
        resolve();
      });
      req.end(body);
    });
  const pending = [];
  const t0 = performance.now();
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    pending.push(send(i));
  }
  await Promise.all(pending);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { requests: latencies.length, errors, p50: at(0.5), p99: at(0.99), max: latencies[latencies.length - 1], achievedRate: total / ((performance.now() - t0) / 1000), maxInFlight: inFlight };
}
