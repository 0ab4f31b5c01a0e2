import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@register/embedded';
import { eventually } from '@register/testkit';

const root = path.resolve(__dirname, '..', '..', '..', '..');
/** The committed description: what a client of v1 reads (ADR 0226). */
export const DESCRIPTION = path.join(root, 'libs', 'api-types', 'openapi.json');
// Prism's own entry point, wherever npm placed the package (its `bin` is `dist/index.js`).
const PRISM = path.join(path.dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');

export interface ValidatingProxy {
  url: string;
  /**
   * Every request or response violation Prism reported since the last call, each with the request it was
   * reported for. Waits until Prism has logged everything it validated before this call.
   */
  violations(): Promise<string[]>;
  close(): Promise<void>;
}

type Description = { paths: Record<string, Record<string, unknown> & { servers?: Array<{ url: string }> }> } & Record<
  string,
  unknown
>;

/**
 * The description as Prism routes it: Prism matches a request's path against `paths` as written and does not
 * resolve the relative server URL (`/api/v1`), so each path is written with the server it is under (its own
 * `servers` entry, else the document's). Nothing else changes: every schema, parameter and status is the
 * committed one.
 */
export function absolutePaths(description: Description): Description {
  const base = (servers?: Array<{ url: string }>) => (servers?.[0]?.url ?? '').replace(/\/$/, '');
  const documentBase = base(description['servers'] as Array<{ url: string }> | undefined);
  const paths: Description['paths'] = {};
  for (const [template, item] of Object.entries(description.paths)) {
    const { servers, ...operations } = item;
    paths[`${servers ? base(servers) : documentBase}${template}`] = operations;
  }
  const { servers: _servers, ...rest } = description;
  return { ...rest, paths };
}

/**
 * `prism proxy` in front of the gateway: every call is forwarded as sent and its answer returned as given, and
 * each request and response is checked against the committed description. A violation does not change the
 * answer (no `--errors`); it is logged, and `violations()` hands it to the test.
 */
export async function startValidatingProxy(upstream: string): Promise<ValidatingProxy> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'validating-proxy-'));
  const document = path.join(dir, 'openapi.json');
  writeFileSync(document, JSON.stringify(absolutePaths(JSON.parse(readFileSync(DESCRIPTION, 'utf8')) as Description)));
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [PRISM, 'proxy', document, upstream, '--host', '127.0.0.1', '--port', String(port), '--cors', 'false'],
    // No colours in the log it is read from; no usage reporting (the tests reach only the package registry).
    { env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1', SCARF_ANALYTICS: 'false', DO_NOT_TRACK: '1' } },
  );
  let log = '';
  const read = (chunk: Buffer) => (log += chunk.toString('utf8'));
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let exited = false;
  void closed.then(() => (exited = true));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (!exited) child.kill('SIGTERM');
    await closed;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await eventually(async () => {
      if (exited) throw new Error(`prism exited:\n${log}`);
      return log.includes('Prism is listening') ? true : undefined;
    }, 60_000);
  } catch (err) {
    await stop();
    throw err;
  }

  // Where the log has been read up to: each call to violations() hands over what was logged since the last.
  let consumed = 0;
  const violationsIn = (text: string) =>
    text
      .split('\n')
      .filter((line) => line.includes('Violation:'))
      .map((line) => line.replace(/^\[[^\]]*\]\s*›\s*/, '').trim());
  return {
    url,
    async violations() {
      // A marker call: Prism logs its forwarding after it validated and logged every earlier answer, so once the
      // marker is in the log, every violation of a call the test has seen answered is there too.
      const marker = `validating-proxy-${randomUUID()}`;
      const res = await fetch(`${url}/health?${marker}`);
      await res.body?.cancel();
      await eventually(async () => (log.includes(marker) ? true : undefined), 30_000, 20);
      const fresh = log.slice(consumed);
      consumed = log.length;
      return violationsIn(fresh).filter((line) => !line.includes(marker));
    },
    close: stop,
  };
}
