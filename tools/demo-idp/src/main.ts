import { startDemoIdp } from './demo-idp';

// `node tools/demo-idp/dist/src/main.js`: the demo IdP alone, on DEMO_IDP_PORT (8088), for a gateway at GATEWAY_URL.
async function main(): Promise<void> {
  const env = process.env;
  const port = Number(env['DEMO_IDP_PORT'] ?? 8088);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`DEMO_IDP_PORT is not a port: ${env['DEMO_IDP_PORT']}`);
  const idp = await startDemoIdp({
    port,
    gatewayUrl: env['GATEWAY_URL'] ?? 'http://localhost:8080',
    ...(env['DEMO_IDP_HOST'] ? { host: env['DEMO_IDP_HOST'] } : {}),
    ...(env['DEMO_IDP_ISSUER'] ? { issuer: env['DEMO_IDP_ISSUER'] } : {}),
    ...(env['OIDC_AUDIENCE'] ? { audience: env['OIDC_AUDIENCE'] } : {}),
  });
  process.stdout.write(
    [
      '',
      `Demo IdP (in memory; new keys on every start) at ${idp.issuer}`,
      `  Gateway settings: IDENTITY_PROVIDER=oidc OIDC_ISSUER=${idp.issuer}` +
        ` OIDC_AUDIENCE=${idp.audience} CORS_ORIGINS=${idp.origin}`,
      `  Demo page: ${idp.demoUrl}`,
      '',
    ].join('\n'),
  );
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void idp.close().then(() => (process.exitCode = 0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`demo IdP could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
