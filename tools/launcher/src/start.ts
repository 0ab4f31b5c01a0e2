import path from 'node:path';
import { assertPortFree } from '@register/embedded';
import { resolveInfrastructure } from './infra';
import { System } from './system';

// `npm start`: the whole system at http://localhost:8080 with the embedded defaults where nothing is configured.
async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..', '..', '..');
  const dataDir = process.env['DATA_DIR'] ?? path.join(root, '.data');
  const gatewayPort = Number(process.env['PORT'] ?? 8080);
  // Before anything starts: a taken port is the usual sign of a second `npm start`.
  await assertPortFree(gatewayPort, 'the gateway', 'PORT');
  const infra = await resolveInfrastructure(process.env, dataDir);
  const system = new System({
    root,
    infra,
    ports: { gateway: gatewayPort },
    logDir: path.join(dataDir, 'logs'),
    ...(process.env['INTERNAL_IDENTITY_SECRET'] ? { secret: process.env['INTERNAL_IDENTITY_SECRET'] } : {}),
    logLevel: process.env['LOG_LEVEL'] ?? 'info',
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('\nStopping…\n');
    await system.stopAll();
    await infra.stop();
    process.exitCode = 0;
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  try {
    await system.startAll();
  } catch (err) {
    process.stderr.write(`${String(err)}\n`);
    await stop();
    process.exitCode = 1;
    return;
  }
  const base = `http://localhost:${gatewayPort}`;
  process.stdout.write(
    [
      '',
      `Register API is up at ${base}`,
      `  API description (Swagger UI): ${base}/docs`,
      `  OpenAPI document:             ${base}/openapi.json`,
      `  Readiness:                    ${base}/health/ready`,
      `  Try: curl -H 'X-Subject: 900000001' ${base}/api/v1/dashboard-view`,
      ...(infra.embedded.length ? ['  Embedded infrastructure:', ...infra.embedded.map((e) => `    - ${e}`)] : []),
      `  Service logs: ${path.join(dataDir, 'logs')}${system.singleProcess ? ' (system.log: the single-process mode)' : ''}`,
      'Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`Could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
