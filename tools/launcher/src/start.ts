import path from 'node:path';
import { startDemoIdp, type DemoIdp } from '@register/demo-idp';
import { assertPortFree } from '@register/embedded';
import { resolveInfrastructure } from './infra';
import { DEFAULT_PORTS, SERVICES, type Service } from './services';
import { System } from './system';

// `npm start`: the whole system at http://localhost:8080 with the embedded defaults where nothing is configured.
async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..', '..', '..');
  const dataDir = process.env['DATA_DIR'] ?? path.join(root, '.data');
  const gatewayPort = Number(process.env['PORT'] || 8080);
  // The services behind the gateway: their default ports, or <SERVICE>_PORT (e.g. LETTERS_PORT).
  const servicePorts = Object.fromEntries(
    SERVICES.filter((s) => s !== 'gateway').map((s) => [
      s,
      Number(process.env[`${s.toUpperCase()}_PORT`] || DEFAULT_PORTS[s]),
    ]),
  ) as Partial<Record<Service, number>>;
  // Before anything starts: a taken port is the usual sign of a second `npm start`. A service's port too: another
  // system answering there would pass for this one's service while its own exits.
  await assertPortFree(gatewayPort, 'the gateway', 'PORT');
  for (const [service, port] of Object.entries(servicePorts))
    await assertPortFree(port, `the ${service} service`, `${service.toUpperCase()}_PORT`);
  // IDENTITY_PROVIDER=oidc without an issuer: the embedded demo IdP stands in for DigiD / the organisation's IdP.
  const gatewayEnv = identityEnv(process.env);
  const demoIdpWanted = gatewayEnv['IDENTITY_PROVIDER'] === 'oidc' && !gatewayEnv['OIDC_ISSUER'];
  const idpPort = Number(process.env['DEMO_IDP_PORT'] ?? 8088);
  if (demoIdpWanted) await assertPortFree(idpPort, 'the demo identity provider', 'DEMO_IDP_PORT');
  const infra = await resolveInfrastructure(process.env, dataDir);
  let demoIdp: DemoIdp | null = null;
  if (demoIdpWanted) {
    try {
      demoIdp = await startDemoIdp({ port: idpPort, gatewayUrl: `http://localhost:${gatewayPort}` });
    } catch (err) {
      await infra.stop();
      throw err;
    }
    gatewayEnv['OIDC_ISSUER'] = demoIdp.issuer;
    gatewayEnv['OIDC_AUDIENCE'] = demoIdp.audience;
    gatewayEnv['CORS_ORIGINS'] = [gatewayEnv['CORS_ORIGINS'], demoIdp.origin].filter(Boolean).join(',');
  }
  const system = new System({
    root,
    infra,
    extraEnv: { gateway: gatewayEnv },
    ports: { ...servicePorts, gateway: gatewayPort },
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
  const base = `http://localhost:${gatewayPort}`;
  process.stdout.write(
    [
      '',
      `Register API is up at ${base}`,
      `  API description (Swagger UI): ${base}/docs`,
      `  OpenAPI document:             ${base}/openapi.json`,
      `  Readiness:                    ${base}/health/ready`,
      ...(demoIdp
        ? [`  Sign in (demo IdP):           ${demoIdp.demoUrl}  (Swagger UI: Authorize)`]
        : gatewayEnv['IDENTITY_PROVIDER'] === 'oidc'
          ? []
          : [`  Try: curl -H 'X-Subject: 900000001' ${base}/api/v1/dashboard-view`]),
      ...(infra.embedded.length ? ['  Embedded infrastructure:', ...infra.embedded.map((e) => `    - ${e}`)] : []),
      `  Service logs: ${path.join(dataDir, 'logs')}${system.singleProcess ? ' (system.log: the single-process mode)' : ''}`,
      'Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );
}

/** The gateway's identity settings as given (the launcher passes every service only the settings it names). */
function identityEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(
      ([k, v]) => v !== undefined && /^(IDENTITY_PROVIDER|OIDC_[A-Z_]+|CORS_ORIGINS)$/.test(k),
    ),
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`Could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
