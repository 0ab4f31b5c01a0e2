import path from 'node:path';
import { createLogger, logProcessWarnings, type ServedApp, type StartService } from '@register/service-kit';
import { SINGLE_PROCESS_ENV, type SingleProcessSettings } from './single-process-settings';
import { START_ORDER, type Service } from './system';

/**
 * The single-process mode (ADR 0037): every service in this one Node process,
 * each on its own port with its own database as usual, with the in-process event transport instead of
 * NATS. The System launcher spawns this file when no nats-server is available; its log is `system.log`.
 */
async function main(): Promise<void> {
  const settings = JSON.parse(process.env[SINGLE_PROCESS_ENV] ?? 'null') as SingleProcessSettings | null;
  if (!settings) throw new Error(`${SINGLE_PROCESS_ENV} is not set; the launcher starts this file`);
  // The services here do not own the process (ownsProcess: false); this file does, and logs its warnings as JSON.
  logProcessWarnings(createLogger('system', settings.logLevel ?? 'info'));
  const root = path.resolve(__dirname, '..', '..', '..');
  const running: Array<{ service: Service; served: ServedApp }> = [];

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      // The reverse of the start order, so the audit consumer is the last to go.
      let clean = true;
      for (const { served } of [...running].reverse()) clean = (await served.stop()) && clean;
      process.exitCode = clean ? 0 : 1;
    })());
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());

  for (const group of START_ORDER) {
    await Promise.all(
      group.map(async (service) => {
        const mainPath = path.join(root, 'services', service, 'dist', 'src', 'main.js');
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { start } = require(mainPath) as { start: StartService };
        running.push({ service, served: await start(settings.envs[service], { ownsProcess: false }) });
      }),
    );
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
