import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@register/embedded';
import { natsUrl, removeBucket, removeDurableConsumers, testEventsEnv, testS3 } from '@register/testkit';
import { SERVICES, System, dropSystemDatabases, resolveZgw, type Service } from '../src';
import { GATEWAY, SIMULATOR, examples, zgwStartSettings, type Example } from './support/markdown-examples';

// The README's examples, taken from the Markdown as they stand, run twice in order on one system started as npm
// start starts it (the launcher's System, with the settings a reader would give npm start): every `call STATUS`
// in them fails the block when the status differs, and so does a missing id.
const root = path.resolve(__dirname, '..', '..', '..');
const all = examples(root);

interface Running {
  gateway: string;
  simulator: string;
  close(): Promise<void>;
}

/** A system of its own (databases, bucket, consumers), given `readerSettings` as npm start would be. */
async function startSystem(readerSettings: Record<string, string>): Promise<Running> {
  const prefix = `rdm_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const ports = Object.fromEntries(
    await Promise.all(SERVICES.map(async (s) => [s, await freePort()] as const)),
  ) as Record<Service, number>;
  const consumers = [`audit_${prefix}`, `documents_${prefix}`, `letters_${prefix}`];
  const settings: Record<string, string> = {
    ...readerSettings,
    ...testEventsEnv(),
    METRICS_PORT: 'off',
    ZGW_SIM_PORT: String(await freePort()),
    AUDIT_CONSUMER: consumers[0]!,
    DOCUMENTS_APPLICATION_EVENTS_CONSUMER: consumers[1]!,
    LETTERS_APPLICATION_EVENTS_CONSUMER: consumers[2]!,
  };
  const zgw = await resolveZgw(settings, ports.gateway);
  const s3 = testS3();
  const bucket = `documents-${prefix.replace(/_/g, '-')}`;
  const postgresUrl = process.env['TEST_PG_URL'] as string;
  const logDir = mkdtempSync(path.join(os.tmpdir(), 'register-readme-'));
  const system = new System({
    root,
    infra: { postgresUrl, natsUrl: natsUrl(), s3: { ...s3, bucket }, embedded: [], zgw: zgw.env, stop: zgw.stop },
    ports,
    databasePrefix: prefix,
    logDir,
    logLevel: 'warn',
    settings,
  });
  const close = async () => {
    await system.stopAll();
    await zgw.stop();
    await dropSystemDatabases(postgresUrl, prefix);
    await removeBucket(bucket);
    await removeDurableConsumers(natsUrl(), consumers);
    rmSync(logDir, { recursive: true, force: true });
  };
  try {
    await system.startAll();
  } catch (err) {
    await close();
    throw err;
  }
  return { gateway: system.url('gateway'), simulator: `http://127.0.0.1:${settings['ZGW_SIM_PORT']}`, close };
}

/** Runs one block with bash (-e, pipefail) in `dir`, against `running`; its exit code and everything it said. */
function run(example: Example, running: Running, dir: string): Promise<{ code: number | null; output: string }> {
  const code = example.code.replaceAll(GATEWAY, running.gateway).replaceAll(SIMULATOR, running.simulator);
  const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', code], {
    cwd: dir,
    // The project's Node first: the examples call `node` for their Idempotency-Keys.
    env: { PATH: `${path.dirname(process.execPath)}:${process.env['PATH']}`, HOME: process.env['HOME'] },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (exit) => resolve({ code: exit, output })));
}

function runsTwice(title: string, blocks: Example[], settings: () => Record<string, string>): void {
  describe(title, () => {
    let running: Running;
    let dir: string;
    beforeAll(async () => {
      running = await startSystem(settings());
      dir = mkdtempSync(path.join(os.tmpdir(), 'register-readme-work-'));
    }, 180_000);
    afterAll(async () => {
      await running?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    for (const round of ['the first time', 'again, on the system that has run them']) {
      it.each(blocks.map((b) => [b.where, b]))(
        `when %s runs ${round}, then every status is the one it expects`,
        async (_where, example) => {
          const { code, output } = await run(example, running, dir);
          // On a failure the block's own words (`expected 201, got 409: {problem}`) are in the message.
          expect(code === 0 ? 'exit 0' : `exit ${code}:\n${output}`).toBe('exit 0');
        },
        120_000,
      );
    }
  });
}

describe('the README', () => {
  it('has examples for npm start and for mirroring on, and the start command that mirroring needs', () => {
    expect(all.filter((e) => !e.zgw).length).toBeGreaterThanOrEqual(3);
    expect(all.filter((e) => e.zgw).length).toBeGreaterThanOrEqual(1);
    expect(zgwStartSettings(root)).toMatchObject({ ZGW_ENABLED: 'true', NOTIFICATIES_AUTH: expect.any(String) });
  });
});

runsTwice(
  'the README, on a system started as `npm start` starts it',
  all.filter((e) => !e.zgw),
  () => ({}),
);
runsTwice(
  "the README's mirroring walk-through, on a system started with its own start command",
  all.filter((e) => e.zgw),
  () => zgwStartSettings(root),
);
