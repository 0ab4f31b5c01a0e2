import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { waitForPort } from '@register/embedded';

/** One listening address of the balancer and the servers behind it. */
export interface Frontend {
  name: string;
  port: number;
  /** host:port of each server. */
  servers: string[];
}

export interface Balancer {
  stop(): Promise<void>;
}

/**
 * HAProxy's own 503 (no server ready, e.g. while the database restarts) as the problem document every service
 * answers, with the request's path as its instance, instead of HAProxy's HTML page.
 */
const UNAVAILABLE =
  `{"type":"/problems/unavailable","title":"Service unavailable","status":503,` +
  `"detail":"No copy of the gateway can take this request right now; retry later.",` +
  `"instance":"%[path,json(utf8s)]","correlationId":null}`;

/**
 * The configuration: one frontend per entry, round robin over servers that pass `GET /health/ready` (checked
 * every second; out after two failures), a request whose connection was refused sent to another server once.
 * A request's body is read before a server is chosen (up to one buffer), so that a 503 of HAProxy's own is read
 * by the client: answering and closing with the body unread resets the connection and loses the answer.
 */
export function haproxyConfig(frontends: Frontend[]): string {
  const lines = [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 130s',
    '  timeout server 130s',
    '  timeout http-request 30s',
    '  option http-keep-alive',
    '  retries 1',
    '  retry-on conn-failure',
    '  option redispatch 1',
    '  option http-buffer-request',
    `  http-error status 503 content-type application/problem+json hdr retry-after 1 lf-string '${UNAVAILABLE}'`,
  ];
  for (const f of frontends) {
    lines.push(`frontend ${f.name}`, `  bind 127.0.0.1:${f.port}`, `  default_backend ${f.name}_servers`);
    lines.push(`backend ${f.name}_servers`, '  balance roundrobin', '  option httpchk GET /health/ready');
    lines.push('  default-server inter 1s fall 2 rise 1');
    f.servers.forEach((s, i) => lines.push(`  server ${f.name}${i + 1} ${s} check`));
  }
  return lines.join('\n') + '\n';
}

/** HAProxy from Debian's package (or the PATH), in the foreground, its config in `dir`. */
export async function startHaproxy(dir: string, frontends: Frontend[], logFile: string): Promise<Balancer> {
  const config = path.join(dir, 'haproxy.cfg');
  writeFileSync(config, haproxyConfig(frontends));
  const binary = existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy';
  const log = createWriteStream(logFile, { flags: 'a' });
  const child: ChildProcess = spawn(binary, ['-f', config, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const failed = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`haproxy exited with ${code}; see ${logFile}`))),
  );
  failed.catch(() => undefined);
  await Promise.race([Promise.all(frontends.map((f) => waitForPort(f.port))), failed]);
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
