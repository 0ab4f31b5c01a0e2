import { randomBytes } from 'node:crypto';
import { assertPortFree } from '@register/embedded';

/** The ZGW case system the applications service mirrors into (ADR 0011), as the launcher resolved it. */
export interface ZgwResolution {
  /** What the applications service is started with (ZGW_* and NOTIFICATIES_AUTH). */
  env: Record<string, string>;
  /** What the startup message lists. */
  embedded: string[];
  stop: () => Promise<void>;
}

/** Where a running ZGW simulator answers (what `startZgwSimulator` gives). */
export interface ZgwEndpoints {
  zakenUrl: string;
  documentenUrl: string;
  catalogiUrl: string;
  zaaktypeUrl: string;
  rsin: string;
}

/**
 * The applications service's settings for mirroring into a running simulator: its URLs and RSIN, the client's id
 * and secret, and (when given) how often the mirror looks for work.
 */
export function zgwSettingsOf(
  sim: ZgwEndpoints,
  client: { clientId: string; secret: string; pollMs?: number },
): Record<string, string> {
  return {
    ZGW_ENABLED: 'true',
    ZGW_ZAKEN_URL: sim.zakenUrl,
    ZGW_DOCUMENTEN_URL: sim.documentenUrl,
    ZGW_CATALOGI_URL: sim.catalogiUrl,
    ZGW_ZAAKTYPE_URL: sim.zaaktypeUrl,
    ZGW_CLIENT_ID: client.clientId,
    ZGW_SECRET: client.secret,
    ZGW_RSIN: sim.rsin,
    ...(client.pollMs !== undefined ? { ZGW_MIRROR_POLL_INTERVAL_MS: String(client.pollMs) } : {}),
  };
}

/** The names the applications service reads; ZGW_SIM_* are the simulator's own. */
const PASSED = /^(ZGW_(?!SIM_)[A-Z_]+|NOTIFICATIES_AUTH)$/;

const enabled = (value: string | undefined) => ['true', '1', 'yes', 'on'].includes((value ?? '').trim().toLowerCase());

/**
 * ADR 0021's rule for infrastructure, for the case system: `ZGW_ENABLED` unset or false changes
 * nothing; with ZGW_ENABLED=true and ZGW_ZAKEN_URL given every ZGW_* setting is passed through; without it
 * the project's own simulator starts in this process (ZGW_SIM_PORT, default 8090) as the embedded default,
 * and it delivers its notifications to the gateway's webhook when NOTIFICATIES_AUTH is set.
 */
export async function resolveZgw(env: NodeJS.ProcessEnv, gatewayPort: number): Promise<ZgwResolution> {
  const passed = Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => PASSED.test(e[0]) && e[1] !== undefined),
  );
  if (!enabled(env['ZGW_ENABLED']) || env['ZGW_ZAKEN_URL'])
    return { env: passed, embedded: [], stop: () => Promise.resolve() };
  const port = Number(env['ZGW_SIM_PORT'] ?? 8090);
  await assertPortFree(port, 'the embedded ZGW simulator', 'ZGW_ZAKEN_URL (and the other ZGW_* URLs) or ZGW_SIM_PORT');
  const secret = env['ZGW_SECRET'] || randomBytes(32).toString('hex');
  const clientId = env['ZGW_CLIENT_ID'] || 'register';
  const notificaties = env['NOTIFICATIES_AUTH'];
  // Loaded only when it is needed: the simulator compiles the ZGW documents' validators.
  const { startZgwSimulator } = await import('@register/zgw-sim');
  const sim = await startZgwSimulator({
    port,
    secret,
    clientId,
    warmUp: true,
    ...(env['ZGW_RSIN'] ? { rsin: env['ZGW_RSIN'] } : {}),
    ...(notificaties
      ? { notify: { url: `http://127.0.0.1:${gatewayPort}/api/v1/notificaties`, authorization: notificaties } }
      : {}),
  });
  return {
    env: { ...passed, ...zgwSettingsOf(sim, { clientId, secret }) },
    embedded: [
      `ZGW simulator (in memory) at ${sim.url}: zaken ${sim.url}/_sim/state, faults ${sim.url}/_sim/faults`,
      notificaties
        ? "  its notifications go to the gateway's /api/v1/notificaties"
        : '  no notifications delivered (set NOTIFICATIES_AUTH to receive them)',
    ],
    stop: () => sim.close(),
  };
}
