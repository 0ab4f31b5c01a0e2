import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@register/embedded';

// freePort (libs/embedded, ADR 0267): the port a test system's service binds seconds later must still be free
// then, whatever else runs on the machine meanwhile.

const root = path.resolve(__dirname, '..', '..', '..');
const ephemeralLow = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);

/** `count` ports from freePort in a Node process of its own (the build), all asked for at once. */
function portsFromAnotherProcess(count: number, reservations: string): Promise<number[]> {
  const script = `
    const { freePort } = require(${JSON.stringify(path.join(root, 'libs/embedded/dist/index.js'))});
    const reservations = ${JSON.stringify(reservations)};
    Promise.all(Array.from({ length: ${count} }, () => freePort({ reservations }))).then((ports) =>
      console.log(JSON.stringify(ports)),
    );
  `;
  const child = spawn(process.execPath, ['-e', script], {
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'] },
  });
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  return new Promise((resolve, reject) =>
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(stdout) as number[]) : reject(new Error(stdout)))),
  );
}

describe('freePort', () => {
  // Reservations of the tests' own, apart from the machine's shared directory that every other test uses.
  let reservations: string;
  beforeEach(() => {
    reservations = mkdtempSync(path.join(os.tmpdir(), 'register-ports-test-'));
  });
  afterEach(() => rmSync(reservations, { recursive: true, force: true }));

  it('when two processes ask for ports at the same time, then no port is given to both', async () => {
    const [first, second] = await Promise.all([
      portsFromAnotherProcess(400, reservations),
      portsFromAnotherProcess(400, reservations),
    ]);
    expect(new Set([...first!, ...second!]).size).toBe(800);
  });

  it('when ports are given, then each lies below the range client sockets take their local ports from', async () => {
    const ports = await portsFromAnotherProcess(100, reservations);
    expect(ports).toHaveLength(100);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(1024);
      expect(port).toBeLessThan(ephemeralLow);
    }
  });

  it('when all but two ports are reserved and one of those two is listened on, then the other is given', async () => {
    const low = 10_000;
    const high = ephemeralLow - 1;
    const [listened, free] = [
      low + 500 + Math.floor(Math.random() * 1000),
      low + 2000 + Math.floor(Math.random() * 1000),
    ];
    for (let port = low; port <= high; port++)
      if (port !== listened && port !== free) writeFileSync(path.join(reservations, String(port)), '');
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(listened!, '127.0.0.1', resolve));
    try {
      expect(await freePort({ reservations })).toBe(free);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
