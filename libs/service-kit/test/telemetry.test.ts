import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventually } from '@register/testkit';
import { startCollector, startTracedSystem, type Collector, type TracedSystem } from './support/traced-system';

// The whole system as processes: the gateway and the reference service export spans (OTLP to a collector
// stand-in, so the SDK and its instrumentations run); the other services propagate the trace without the SDK.
// The applications service keeps a read's processing records in a spool (ADR 0269), as deployed.
let collector: Collector;
let sys: TracedSystem;
let spoolDir: string;
beforeAll(async () => {
  collector = await startCollector();
  spoolDir = mkdtempSync(path.join(os.tmpdir(), 'register-telemetry-spool-'));
  const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '200' };
  sys = await startTracedSystem({ gateway: otel, reference: otel, applications: { LDV_SPOOL_DIR: spoolDir } });
}, 180_000);
afterAll(async () => {
  await sys?.close();
  await collector?.close();
  rmSync(spoolDir, { recursive: true, force: true });
}, 60_000);

const admin = { 'X-Subject': '900000003', 'X-Role': 'admin' };
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

async function setFlag(headers: Record<string, string>): Promise<Response> {
  return fetch(`${sys.gateway}/api/v1/admin/flags/herregistratie-aanvragen`, {
    method: 'PUT',
    headers: { ...admin, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ enabled: true }),
  });
}

const withTrace = (lines: Record<string, unknown>[], traceId: string) => lines.filter((l) => l['traceId'] === traceId);

describe('W3C Trace Context', () => {
  it(
    'when a write carries a traceparent, then its trace id is on the log lines ' +
      'of the gateway, of the service and of the audit consumer for its event',
    async () => {
      const traceId = hex(16);
      const res = await setFlag({ traceparent: `00-${traceId}-${hex(8)}-01`, 'x-correlation-id': 'trace-test-1' });
      expect(res.status).toBe(204);

      const gatewayLine = await eventually(async () =>
        withTrace(sys.logLines('gateway'), traceId).find((l) => l['msg'] === 'request completed'),
      );
      expect(gatewayLine).toMatchObject({
        correlationId: 'trace-test-1',
        url: '/api/v1/admin/flags/herregistratie-aanvragen',
        statusCode: 204,
      });
      const serviceLine = await eventually(async () =>
        withTrace(sys.logLines('reference'), traceId).find((l) => l['msg'] === 'request completed'),
      );
      expect(serviceLine).toMatchObject({ correlationId: 'trace-test-1', method: 'PUT' });
      const auditLine = await eventually(async () =>
        withTrace(sys.logLines('audit'), traceId).find((l) => l['msg'] === 'event handled'),
      );
      expect(auditLine).toMatchObject({ correlationId: 'trace-test-1', subject: 'register.audit.reference' });
    },
  );

  it(
    'when a request carries no traceparent, ' +
      'then the gateway starts a trace and the service logs the same trace id',
    async () => {
      const res = await setFlag({ 'x-correlation-id': 'trace-test-2' });
      expect(res.status).toBe(204);
      const gatewayLine = await eventually(async () =>
        sys.logLines('gateway').find((l) => l['correlationId'] === 'trace-test-2' && l['msg'] === 'request completed'),
      );
      expect(gatewayLine['traceId']).toMatch(/^[0-9a-f]{32}$/);
      const serviceLine = await eventually(async () =>
        sys
          .logLines('reference')
          .find((l) => l['correlationId'] === 'trace-test-2' && l['msg'] === 'request completed'),
      );
      expect(serviceLine['traceId']).toBe(gatewayLine['traceId']);
    },
  );

  it(
    'when OTEL_EXPORTER_OTLP_ENDPOINT is set, then the spans of the ' +
      'gateway and of the service are exported under the request trace id',
    async () => {
      const traceId = hex(16);
      expect((await setFlag({ traceparent: `00-${traceId}-${hex(8)}-01` })).status).toBe(204);
      const exported = await eventually(async () => {
        const bodies = collector.bodies.filter((b) => b.includes(traceId));
        return bodies.some((b) => b.includes('"gateway"')) && bodies.some((b) => b.includes('"reference"'))
          ? bodies
          : undefined;
      });
      expect(exported.length).toBeGreaterThan(0);
    },
  );
});

describe('GET /metrics', () => {
  const services = ['gateway', 'applications', 'documents', 'letters', 'reference', 'audit'] as const;

  it.each(services)(
    'when %s has served a request, then its metrics port answers ' +
      'Prometheus text with the request histogram, pool and event loop',
    async (service) => {
      // A request of its own: the gateway's /api/v1/me, a service's /openapi.json.
      const [path, route] = service === 'gateway' ? ['/api/v1/me', '/api/v1/me'] : ['/openapi.json', '/openapi.json'];
      expect((await fetch(`${sys.url(service)}${path}`, { headers: admin })).status).toBe(200);
      const res = await fetch(sys.metricsUrl(service));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      const text = await res.text();
      expect(text).toContain('# TYPE http_server_request_duration_seconds histogram');
      const buckets = text.split('\n').filter((l) => l.startsWith('http_server_request_duration_seconds_bucket{'));
      expect(
        buckets.some(
          (l) =>
            l.includes(`route="${route}"`) && l.includes('status_code="200"') && l.includes(`service="${service}"`),
        ),
      ).toBe(true);
      expect(text).toContain('db_pool_connections{state="total"');
      expect(text).toContain('db_pool_waiting');
      expect(text).toContain('nodejs_eventloop_lag_seconds');
    },
  );

  it(
    'when the outbox and the consumers are scraped, then backlog, ' +
      'age, consumer lag, redeliveries and dead letters are there',
    async () => {
      const reference = await (await fetch(sys.metricsUrl('reference'))).text();
      expect(reference).toMatch(/outbox_backlog\{service="reference"\} \d+/);
      expect(reference).toMatch(/outbox_oldest_age_seconds\{service="reference"\} [\d.]+/);
      const audit = await (await fetch(sys.metricsUrl('audit'))).text();
      expect(audit).toMatch(/event_consumer_lag\{durable="audit_tel_[0-9a-f]+",service="audit"\} \d+/);
      expect(audit).toContain('# TYPE event_consumer_redeliveries_total counter');
      expect(audit).toContain('# TYPE event_consumer_dead_letters_total counter');
    },
  );

  it(
    "when a practitioner's read was logged through the spool, then the spool gauge is scraped and falls back to 0 " +
      'once the stream acknowledged the records',
    async () => {
      const me = { 'X-Subject': '900000011', 'X-Role': 'drafter' };
      expect((await fetch(`${sys.gateway}/api/v1/applications`, { headers: me })).status).toBe(200);
      const gauge = async () => {
        const text = await (await fetch(sys.metricsUrl('applications'))).text();
        return /^processing_spool_bytes\{service="applications"\} (\d+)$/m.exec(text)?.[1];
      };
      expect(await gauge()).toMatch(/^\d+$/);
      // The record reached the logbook, so the stream acknowledged it.
      await eventually(async () => {
        const res = await fetch(`${sys.gateway}/api/v1/me/verwerkingen`, { headers: me });
        return ((await res.json()) as unknown[]).length === 1 ? true : undefined;
      });
      expect(await gauge()).toBe('0');
    },
  );

  it(
    'when a path is sent in another letter case, then it is a bare ' +
      '404 before any proxying and no route label holds the raw path',
    async () => {
      const variants = ['/API/V1/applications', '/api/v1/Applications', '/Api/v1/applications', '/API/V1/me', '/DOCS/'];
      for (const path of variants) {
        const res = await fetch(`${sys.gateway}${path}`, { headers: { 'X-Subject': '900000001' } });
        expect([path, res.status, await res.text()]).toEqual([path, 404, '']);
      }
      const routes = (service: string, text: string) =>
        text
          .split('\n')
          .filter((l) => l.startsWith('http_server_request_duration_seconds_count{'))
          .map((l) => /route="([^"]*)"/.exec(l)?.[1])
          .filter((r) => r !== undefined)
          .map((r) => `${service} ${r}`);
      const gatewayRoutes = routes('gateway', await (await fetch(sys.metricsUrl('gateway'))).text());
      const applicationsRoutes = routes('applications', await (await fetch(sys.metricsUrl('applications'))).text());
      expect(gatewayRoutes).toContain('gateway unmatched');
      expect([...gatewayRoutes, ...applicationsRoutes].filter((r) => /API|Api|Applications|DOCS/.test(r))).toEqual([]);
    },
  );

  it("when /metrics is asked of the gateway's public port, then a bare 404", async () => {
    const res = await fetch(`${sys.gateway}/metrics`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('');
  });
});
