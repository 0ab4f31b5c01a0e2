import { sql } from 'kysely';
import { InternalClient } from '@register/service-kit';
import type { Context } from '../context';
import { discoveryUrl } from '../identity/oidc-discovery';
import type { UpstreamName } from '../proxy/upstream-name';
import type { SystemStatus } from './system.schemas';

type Service = SystemStatus['services'][number];
type Dependency = SystemStatus['dependencies'][number];
const TIMEOUT_MS = 2000;

async function readinessOf(name: string, url: string): Promise<Service> {
  try {
    const res = await fetch(new URL('/health/ready', url), { signal: AbortSignal.timeout(TIMEOUT_MS) });
    const body = (await res.json()) as { checks?: Record<string, unknown> };
    const checks = Object.fromEntries(Object.entries(body.checks ?? {}).map(([k, v]) => [k, v === true]));
    return { name, ready: res.ok, checks };
  } catch {
    return { name, ready: false, checks: {} };
  }
}

async function gatewayReadiness(ctx: Context): Promise<Service> {
  const database = await sql`SELECT 1`.execute(ctx.db).then(
    () => true,
    () => false,
  );
  const events = await ctx.events.ready().catch(() => false);
  return { name: 'gateway', ready: database && events, checks: { database, events } };
}

async function identityProvider(ctx: Context): Promise<Dependency['status']> {
  const issuer = ctx.config.IDENTITY_PROVIDER === 'oidc' ? ctx.config.OIDC_ISSUER : undefined;
  if (!issuer) return 'not-configured';
  const res = await fetch(discoveryUrl(issuer), { signal: AbortSignal.timeout(TIMEOUT_MS) }).catch(() => null);
  return res?.ok ? 'ok' : 'unavailable';
}

interface MirrorStatus {
  enabled: boolean;
  zaaksysteem: Dependency['status'];
  backlog: number;
  diverged: number;
  pastWindow: number;
}

async function mirrorStatus(ctx: Context): Promise<MirrorStatus | null> {
  const client = new InternalClient({
    baseUrl: ctx.targets.applications,
    secret: ctx.config.INTERNAL_IDENTITY_SECRET,
    caller: 'gateway',
    timeoutMs: 2 * TIMEOUT_MS,
  });
  const res = await client.request<MirrorStatus>('GET', '/internal/case-mirror/status').catch(() => null);
  void client.close();
  return res?.status === 200 ? res.body : null;
}

async function consumers(ctx: Context): Promise<SystemStatus['consumers']> {
  if (ctx.events.transport !== 'nats') return [];
  const found: SystemStatus['consumers'] = [];
  for await (const info of ctx.events.jsm.consumers.list(ctx.events.stream)) {
    if (info.config.durable_name)
      found.push({ name: info.config.durable_name, pending: info.num_pending + info.num_ack_pending });
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/** Every check's state for a dependency that several services check (the database, NATS). */
function shared(services: Service[], check: string): Dependency['status'] {
  const seen = services.filter((s) => check in s.checks);
  if (seen.length === 0) return 'unavailable';
  return seen.every((s) => s.checks[check]) ? 'ok' : 'unavailable';
}

/** The whole system as an operator looks at it: readiness, dependencies, breakers and backlogs. */
export async function systemStatus(ctx: Context): Promise<SystemStatus> {
  const names = Object.keys(ctx.targets) as UpstreamName[];
  const [gateway, upstream, idp, mirror, pending] = await Promise.all([
    gatewayReadiness(ctx),
    Promise.all(names.map((name) => readinessOf(name, ctx.targets[name]))),
    identityProvider(ctx),
    mirrorStatus(ctx),
    consumers(ctx).catch(() => []),
  ]);
  const services = [gateway, ...upstream];
  const documents = upstream.find((s) => s.name === 'documents');
  return {
    services,
    dependencies: [
      { name: 'postgresql', status: shared(services, 'database') },
      { name: 'nats', status: shared(services, 'events') },
      { name: 's3', status: documents?.checks['storage'] ? 'ok' : 'unavailable' },
      { name: 'zaaksysteem', status: mirror ? mirror.zaaksysteem : 'unavailable' },
      { name: 'identity-provider', status: idp },
    ],
    breakers: names.map((name) => ({
      upstream: name,
      state: ctx.upstreams[name].breaker.isOpen() ? 'open' : 'closed',
    })),
    caseMirror: mirror
      ? { enabled: mirror.enabled, backlog: mirror.backlog, diverged: mirror.diverged, pastWindow: mirror.pastWindow }
      : null,
    consumers: pending,
  };
}
