import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@register/embedded';
import { SERVICES, System, dropSystemDatabases, type Infrastructure, type Service } from '@register/launcher';

export const ROOT = path.resolve(__dirname, '..', '..', '..');
/** The committed description and the portals' types generated from it (libs/api-types). */
export const DESCRIPTION_FILE = path.join(ROOT, 'libs/api-types/openapi.json');
export const TYPES_FILE = path.join(ROOT, 'libs/api-types/src/generated/api.ts');

/** The whole system as separate processes on `infra`, with ports and databases of its own; `stop` removes them. */
export async function startWholeSystem(
  infra: Infrastructure,
  databasePrefix: string,
  extraEnv: Partial<Record<Service, Record<string, string>>> = {},
): Promise<{ system: System; gateway: string; stop: () => Promise<void> }> {
  const ports = Object.fromEntries(
    await Promise.all(SERVICES.map(async (s) => [s, await freePort()] as const)),
  ) as Record<Service, number>;
  const logDir = mkdtempSync(path.join(os.tmpdir(), 'register-system-'));
  const system = new System({ root: ROOT, infra, ports, databasePrefix, logDir, logLevel: 'warn', extraEnv });
  const stop = async () => {
    await system.stopAll();
    rmSync(logDir, { recursive: true, force: true });
    await dropSystemDatabases(infra.postgresUrl, databasePrefix);
  };
  try {
    await system.startAll();
  } catch (err) {
    await stop();
    throw err;
  }
  return { system, gateway: system.url('gateway'), stop };
}

/** The description as the gateway serves it, from the whole system started on `infra`. */
export async function liveDescription(
  infra: Infrastructure,
  databasePrefix: string,
  extraEnv: Partial<Record<Service, Record<string, string>>> = {},
): Promise<string> {
  const { gateway, stop } = await startWholeSystem(infra, databasePrefix, extraEnv);
  try {
    const res = await fetch(`${gateway}/openapi.json`);
    if (!res.ok) throw new Error(`/openapi.json answered ${res.status}`);
    return `${JSON.stringify(await res.json(), null, 2)}\n`;
  } finally {
    await stop();
  }
}

/** openapi-typescript's output for a description file (its CLI: the package is an ES module). */
export function generateTypes(descriptionFile: string): string {
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'register-api-types-')), 'api.ts');
  try {
    const run = spawnSync(path.join(ROOT, 'node_modules/.bin/openapi-typescript'), [descriptionFile, '-o', out], {
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(`openapi-typescript failed: ${run.stderr}`);
    return readFileSync(out, 'utf8');
  } finally {
    rmSync(path.dirname(out), { recursive: true, force: true });
  }
}
