import path from 'node:path';
import { startDemoIdp, type DemoIdp } from '@register/demo-idp';
import { assertPortFree, dataDirOf, removeEventsAddress, writeEventsAddress } from '@register/embedded';
import { loadConfig } from '@register/service-kit';
import { resolveInfrastructure, type Infrastructure } from './infra';
import { SERVICES, type Service } from './services';
import { launcherSchema, type LauncherConfig } from './settings/launcher-schema';
import { System } from './system';

/** The services behind the gateway: their default ports, or <SERVICE>_PORT (e.g. LETTERS_PORT). */
function servicePortsOf(config: LauncherConfig): Partial<Record<Service, number>> {
  return Object.fromEntries(
    SERVICES.filter((s) => s !== 'gateway').map((s) => [
      s,
      config[`${s.toUpperCase()}_PORT` as keyof LauncherConfig] as number,
    ]),
  );
}

/**
 * Before anything starts: a taken port is the usual sign of a second `npm start`. A service's port too: another
 * system answering there would pass for this one's service while its own exits.
 */
async function assertPortsFree(gatewayPort: number, servicePorts: Partial<Record<Service, number>>): Promise<void> {
  await assertPortFree(gatewayPort, 'the gateway', 'PORT');
  for (const [service, port] of Object.entries(servicePorts))
    await assertPortFree(port, `the ${service} service`, `${service.toUpperCase()}_PORT`);
}

// `npm start`: the whole system at http://localhost:8080 with the embedded defaults where nothing is configured.
async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..', '..', '..');
  const config = loadConfig(launcherSchema, process.env);
  const dataDir = dataDirOf(process.env, root);
  const gatewayPort = config.PORT;
  const servicePorts = servicePortsOf(config);
  await assertPortsFree(gatewayPort, servicePorts);
  // IDENTITY_PROVIDER=oidc without an issuer: the embedded demo IdP stands in for DigiD / the organisation's IdP.
  const demoIdpWanted = config.IDENTITY_PROVIDER === 'oidc' && !process.env['OIDC_ISSUER'];
  if (demoIdpWanted) await assertPortFree(config.DEMO_IDP_PORT, 'the demo identity provider', 'DEMO_IDP_PORT');
  const infra = await resolveInfrastructure(process.env, dataDir);
  let demoIdp: DemoIdp | null = null;
  if (demoIdpWanted) {
    try {
      demoIdp = await startDemoIdp({ port: config.DEMO_IDP_PORT, gatewayUrl: `http://localhost:${gatewayPort}` });
    } catch (err) {
      await infra.stop();
      throw err;
    }
  }
  const system = new System({
    root,
    infra,
    extraEnv: { gateway: demoIdp ? demoIdpSettings(demoIdp) : {} },
    ports: { ...servicePorts, gateway: gatewayPort },
    logDir: path.join(dataDir, 'logs'),
    ...(config.INTERNAL_IDENTITY_SECRET ? { secret: config.INTERNAL_IDENTITY_SECRET } : {}),
    logLevel: config.LOG_LEVEL,
    settings: process.env,
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('\nStopping…\n');
    removeEventsAddress(dataDir);
    await system.stopAll();
    await infra.stop();
    await demoIdp?.close();
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
  // The operator tools (npm run dead-letters) find this system's events here.
  writeEventsAddress(dataDir, {
    natsUrl: infra.natsUrl,
    stream: process.env['EVENTS_STREAM'] || 'REGISTER',
    subjectPrefix: process.env['EVENTS_SUBJECT_PREFIX'] ?? '',
  });
  process.stdout.write(banner(`http://localhost:${gatewayPort}`, config, { infra, demoIdp, system, dataDir }));
}

/** The gateway verifies the demo IdP's tokens, and its demo page may call the API. */
function demoIdpSettings(demoIdp: DemoIdp): NodeJS.ProcessEnv {
  const cors = [process.env['CORS_ORIGINS'], demoIdp.origin].filter(Boolean).join(',');
  return { OIDC_ISSUER: demoIdp.issuer, OIDC_AUDIENCE: demoIdp.audience, CORS_ORIGINS: cors };
}

function banner(
  base: string,
  config: LauncherConfig,
  {
    infra,
    demoIdp,
    system,
    dataDir,
  }: { infra: Infrastructure; demoIdp: DemoIdp | null; system: System; dataDir: string },
): string {
  return [
    '',
    `Register API is up at ${base}`,
    `  API description (Swagger UI): ${base}/docs`,
    `  OpenAPI document:             ${base}/openapi.json`,
    `  Readiness:                    ${base}/health/ready`,
    `  Operations console:           ${base}/console/`,
    ...(demoIdp
      ? [`  Sign in (demo IdP):           ${demoIdp.demoUrl}  (Swagger UI: Authorize)`]
      : config.IDENTITY_PROVIDER === 'oidc'
        ? []
        : [`  Try: curl -H 'X-Subject: 900000001' ${base}/api/v1/dashboard-view`]),
    ...(infra.embedded.length ? ['  Embedded infrastructure:', ...infra.embedded.map((e) => `    - ${e}`)] : []),
    `  Service logs: ${path.join(dataDir, 'logs')}` +
      `${system.singleProcess ? ' (system.log: the single-process mode)' : ''}`,
    'Press Ctrl+C to stop.',
    '',
  ].join('\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`Could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
