import { execFile } from 'node:child_process';

/** What one wrk run measured. */
export interface WrkRun {
  requests: number;
  rps: number;
  /** Latency percentiles, ms. */
  p50: number;
  p99: number;
  /** Connect, read, write errors and timeouts. */
  errors: number;
  non2xx: number;
}

const MS_PER_UNIT: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function percentile(out: string, p: string): number {
  const m = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(out);
  if (!m) throw new Error(`wrk printed no ${p}% latency:\n${out}`);
  return Number(m[1]) * MS_PER_UNIT[m[2]!]!;
}

/** Reads wrk's `--latency` report. */
export function parseWrk(out: string): WrkRun {
  const requests = /^\s*(\d+) requests in /m.exec(out);
  const rps = /^Requests\/sec:\s+([\d.]+)/m.exec(out);
  if (!requests || !rps) throw new Error(`wrk printed no totals:\n${out}`);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out);
  return {
    requests: Number(requests[1]),
    rps: Number(rps[1]),
    p50: percentile(out, '50'),
    p99: percentile(out, '99'),
    errors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
    non2xx: non2xx ? Number(non2xx[1]) : 0,
  };
}

/**
 * Load from wrk (Debian's package): one thread, `connections` kept-alive connections, as fast as the server
 * answers. A C program on one thread takes far less of the two cores than a Node load generator would, so the
 * ratios between servers are theirs, not the load's.
 */
export function wrk(url: string, options: { connections: number; seconds: number; headers: Record<string, string> }) {
  const args = ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--latency'];
  for (const [name, value] of Object.entries(options.headers)) args.push('-H', `${name}: ${value}`);
  return new Promise<WrkRun>((resolve, reject) =>
    execFile('wrk', [...args, url], { maxBuffer: 1 << 20 }, (err, stdout, stderr) =>
      err ? reject(new Error(`wrk failed: ${stderr || err.message}`)) : resolve(parseWrk(stdout)),
    ),
  );
}
