import pino from 'pino';
import { startZgwSimulator, type ZgwSimulatorOptions } from './simulator';

// `node tools/zgw-sim/dist/src/main.js`: the simulator on ZGW_SIM_PORT (8090). State lives in memory only.
/** The simulator's options from the environment; a missing secret or a bad port stops the start. */
function optionsFrom(env: NodeJS.ProcessEnv): Omit<ZgwSimulatorOptions, 'logger'> {
  const secret = env['ZGW_SECRET'];
  if (!secret) throw new Error('ZGW_SECRET is required: the HS256 secret clients sign their JWTs with');
  const notifyUrl = env['ZGW_SIM_NOTIFY_URL'];
  const notifyAuth = env['ZGW_SIM_NOTIFY_AUTH'];
  if (notifyUrl && !notifyAuth)
    throw new Error('ZGW_SIM_NOTIFY_URL needs ZGW_SIM_NOTIFY_AUTH (the exact Authorization header value)');
  const port = Number(env['ZGW_SIM_PORT'] ?? 8090);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`ZGW_SIM_PORT is not a port: ${env['ZGW_SIM_PORT']}`);
  return {
    port,
    host: env['ZGW_SIM_HOST'] ?? env['HOST'] ?? '127.0.0.1',
    secret,
    warmUp: true,
    ...(env['ZGW_CLIENT_ID'] ? { clientId: env['ZGW_CLIENT_ID'] } : {}),
    ...(env['ZGW_SIM_BASE_URL'] ? { baseUrl: env['ZGW_SIM_BASE_URL'] } : {}),
    ...(env['ZGW_RSIN'] ? { rsin: env['ZGW_RSIN'] } : {}),
    ...(notifyUrl && notifyAuth ? { notify: { url: notifyUrl, authorization: notifyAuth } } : {}),
  };
}

async function main(): Promise<void> {
  const env = process.env;
  const options = optionsFrom(env);
  const logger = pino({ name: 'zgw-sim', level: env['LOG_LEVEL'] ?? 'info' });
  const sim = await startZgwSimulator({ ...options, logger });
  process.stdout.write(
    [
      '',
      `ZGW simulator (in memory: a restart forgets everything) at ${sim.url}`,
      `  ZGW_ZAKEN_URL=${sim.zakenUrl}`,
      `  ZGW_DOCUMENTEN_URL=${sim.documentenUrl}`,
      `  ZGW_CATALOGI_URL=${sim.catalogiUrl}`,
      `  ZGW_ZAAKTYPE_URL=${sim.zaaktypeUrl}`,
      `  ZGW_RSIN=${sim.rsin}`,
      `  State: ${sim.url}/_sim/state   Faults: ${sim.url}/_sim/faults`,
      '',
    ].join('\n'),
  );
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    sim.close().then(
      () => (process.exitCode = 0),
      (err: unknown) => {
        logger.error({ err }, 'close failed');
        process.exitCode = 1;
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`Could not start the ZGW simulator: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
