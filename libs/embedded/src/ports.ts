import { closeSync, mkdirSync, openSync, readFileSync, statSync, utimesSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * How long a reservation keeps a port from every other process: long enough for the process that took it to
 * start whatever listens there (a service binds within seconds; a stopped one is started again on the same port
 * within a test), short enough that a run's reservations are free again for the next run.
 */
const RESERVATION_MS = 10 * 60_000;

/** The ports `freePort` gave this process: each is given once. */
const handedOut = new Set<number>();

/**
 * A port nothing listens on now, that no other process on this machine was given in the last ten minutes, and
 * never one this process was given before (ADR 0267).
 *
 * The caller binds it later, after this has closed it. Two things could take it meanwhile, and each is ruled out:
 * - an outgoing connection's local port: the kernel gives those from its ephemeral range, and the port comes from
 *   below that range;
 * - another process asking the same (a parallel test worker, a child it started): each port is reserved by a file
 *   created exclusively in a directory every process of this user on the machine shares.
 */
export async function freePort(options: { reservations?: string } = {}): Promise<number> {
  const dir = reservations(options.reservations);
  const [low, high] = candidateRange();
  const size = high - low + 1;
  // From a random place on, every port of the range once: parallel callers start apart, and a free port is found
  // however few are left.
  const start = Math.floor(Math.random() * size);
  for (let i = 0; i < size; i++) {
    const port = low + ((start + i) % size);
    if (handedOut.has(port) || !reserve(dir, port)) continue;
    handedOut.add(port);
    if (await bindable(port)) return port;
  }
  // A machine whose range below the ephemeral ports is all taken: the kernel's choice.
  return portFromTheSystem();
}

/** The ports below the kernel's ephemeral range (where outgoing connections get theirs), above the well-known. */
function candidateRange(): [number, number] {
  let ephemeralLow = 32768;
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low !== undefined && Number.isInteger(low)) ephemeralLow = low;
  } catch {
    // Not Linux: the IANA dynamic range starts at 49152, so below 32768 is outside it as well.
  }
  const high = Math.min(ephemeralLow, 65536) - 1;
  const low = 10_000;
  return high - low >= 1000 ? [low, high] : [1024, high];
}

/** The shared directory of reservations (another one only for the tests of this function). */
function reservations(given: string | undefined): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  // Not os.tmpdir(): a test run gives its processes a TMPDIR of their own, and the reservations must be shared.
  const dir = given ?? path.join('/tmp', `register-ports-${uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** Takes the port's reservation: a new file, or one that has expired (renewed by touching it). */
function reserve(dir: string, port: number): boolean {
  const file = path.join(dir, String(port));
  try {
    closeSync(openSync(file, 'wx'));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return true; // no shared directory: the bind check alone
  }
  try {
    if (Date.now() - statSync(file).mtimeMs < RESERVATION_MS) return false;
    const now = new Date();
    utimesSync(file, now, now);
    return true;
  } catch {
    return false;
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

function portFromTheSystem(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}
