import net from 'node:net';
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import type { Identity } from '@register/authz';
import {
  eventually,
  pactOutput,
  signedIdentity,
  startService,
  type PactOutput,
  type TestService,
} from '@register/testkit';
import type { Context } from '../../src/context';
import { start } from '../../src/main';

// ADR 0235: what the gateway needs of each service, driven through the gateway itself (its proxy, its
// system status, its merged description, its breaker's probe) with every service replaced by Pact's mock server. The
// pacts say what the gateway sends (the signed identity of the caller it resolved, the correlation id, the client's
// headers it forwards) and what it reads back.
const { eachLike, integer, like, regex, uuid } = MatchersV3;
const SERVICES = ['applications', 'documents', 'letters', 'reference', 'audit'] as const;
type Service = (typeof SERVICES)[number];

/**
 * Where the gateway's upstream URL for a service leads: a TCP relay, up for the whole file, that passes the
 * bytes unchanged to the mock server of the running test (Pact starts each on a port of its own choosing, so no
 * port is given up and taken again between tests).
 */
interface Relay {
  url: string;
  to(port: number): void;
  close(): Promise<void>;
}

async function relay(): Promise<Relay> {
  let target: number | null = null;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (target === null) return client.destroy();
    const upstream = net.connect(target, '127.0.0.1');
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
    }
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    // A kept-alive connection leads to the previous test's mock server: it ends, as that server's would.
    to(next) {
      for (const socket of open) socket.destroy();
      target = next;
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const outputs = {} as Record<Service, PactOutput>;
const pacts = {} as Record<Service, PactV4>;
const relays = {} as Record<Service, Relay>;
let gateway: TestService<Context>;

beforeAll(async () => {
  for (const service of SERVICES) {
    outputs[service] = pactOutput('gateway', service);
    pacts[service] = new PactV4({
      consumer: 'gateway',
      provider: service,
      dir: outputs[service].dir,
      logLevel: 'warn',
    });
    relays[service] = await relay();
  }
  gateway = await startService(start, {
    name: 'gateway',
    env: {
      APPLICATIONS_URL: relays.applications.url,
      DOCUMENTS_URL: relays.documents.url,
      LETTERS_URL: relays.letters.url,
      REFERENCE_URL: relays.reference.url,
      AUDIT_URL: relays.audit.url,
    },
  });
});
afterAll(async () => {
  await gateway?.close();
  for (const service of SERVICES) {
    outputs[service]?.close();
    await relays[service]?.close();
  }
});

const drafter = (subject: string): Identity => ({
  practitioner: { subject, role: 'drafter' },
  caseHandler: null,
  adminSeam: false,
});
const admin: Identity = { practitioner: { subject: '100000001', role: 'admin' }, caseHandler: null, adminSeam: false };

/**
 * The headers the gateway sends on a proxied call: the caller's identity, signed, and the correlation id. The token
 * names no correlation id: it is signed once per caller for half its lifetime (ADR 0272).
 */
function forwarded(identity: Identity, correlationId: string): Record<string, string | ReturnType<typeof regex>> {
  const signed = signedIdentity({ identity, service: null, correlationId: null });
  return { 'x-internal-identity': regex(signed.pattern, signed.example), 'x-correlation-id': correlationId };
}

/** A portal's call to the gateway: the identity headers of the stand-in provider and a correlation id. */
async function call(path: string, who: Record<string, string>, correlationId: string, init: RequestInit = {}) {
  const res = await fetch(`${gateway.url}${path}`, {
    ...init,
    headers: { ...who, 'x-correlation-id': correlationId, ...(init.headers as Record<string, string>) },
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** An interaction ready to run (what Pact's builder gives once the answer is described). */
interface Described {
  executeTest(fn: (server: { port: number }) => Promise<void>): Promise<unknown>;
}

/** Runs `fn` while every given service's mock server is up with its interaction. */
async function withServices(
  interactions: Array<[Service, (pact: PactV4) => Described]>,
  fn: () => Promise<void>,
): Promise<void> {
  const [first, ...rest] = interactions;
  if (!first) return fn();
  const [service, build] = first;
  await build(pacts[service]).executeTest((server) => {
    relays[service].to(server.port);
    return withServices(rest, fn);
  });
}

describe('gateway → each service: a proxied public route', () => {
  it('applications: creates a concept with the idempotency key and body the client sent', async () => {
    const correlationId = 'pact-gateway-applications-create';
    await pacts.applications
      .addInteraction()
      .given('900000456 has no application')
      .uponReceiving('a proxied creation of an intake by a practitioner')
      .withRequest('POST', '/api/v1/applications', (b) =>
        b
          .headers({
            ...forwarded(drafter('900000456'), correlationId),
            'content-type': 'application/json',
            'idempotency-key': 'pact-create-intake',
          })
          .jsonBody({ type: 'intake' }),
      )
      .willRespondWith(201, (b) =>
        b
          .headers({
            location: regex(
              '^/api/v1/applications/[0-9a-f-]{36}$',
              '/api/v1/applications/7d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6',
            ),
          })
          .jsonBody({
            id: uuid('7d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6'),
            type: 'intake',
            status: like({ tag: 'Concept' }),
          }),
      )
      .executeTest(async (server) => {
        relays.applications.to(server.port);
        const res = await call(
          '/api/v1/applications',
          { 'X-Subject': '900000456', 'X-Role': 'drafter' },
          correlationId,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'idempotency-key': 'pact-create-intake' },
            body: JSON.stringify({ type: 'intake' }),
          },
        );
        expect(res.status).toBe(201);
        expect(res.body).toEqual({
          id: '7d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6',
          type: 'intake',
          status: { tag: 'Concept' },
        });
        expect(res.headers.get('location')).toBe('/api/v1/applications/7d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6');
      });
  });

  it("documents: reads a wizard's upload categories for a practitioner", async () => {
    const correlationId = 'pact-gateway-documents-categories';
    await pacts.documents
      .addInteraction()
      .given('the shipped upload categories')
      .uponReceiving("a proxied request for the intake's upload categories")
      .withRequest('GET', '/api/v1/uploads/categories', (b) =>
        b.query({ wizardId: 'intake' }).headers(forwarded(drafter('900000456'), correlationId)),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({ categories: eachLike({ categoryId: like('diploma'), required: like(true) }) }),
      )
      .executeTest(async (server) => {
        relays.documents.to(server.port);
        const res = await call(
          '/api/v1/uploads/categories?wizardId=intake',
          { 'X-Subject': '900000456' },
          correlationId,
        );
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ categories: [{ categoryId: 'diploma', required: true }] });
      });
  });

  it('letters: lists the organisation templates for an admin', async () => {
    const correlationId = 'pact-gateway-letters-templates';
    await pacts.letters
      .addInteraction()
      .given('the shipped organisation templates')
      .uponReceiving('a proxied request for the organisation templates by an admin')
      .withRequest('GET', '/api/v1/admin/org-templates', (b) => b.headers(forwarded(admin, correlationId)))
      .willRespondWith(200, (b) =>
        b.jsonBody(eachLike({ subOrgId: like('register'), orgName: like('CIBG'), publishedVersion: integer(1) })),
      )
      .executeTest(async (server) => {
        relays.letters.to(server.port);
        const res = await call(
          '/api/v1/admin/org-templates',
          { 'X-Subject': '100000001', 'X-Role': 'admin' },
          correlationId,
        );
        expect(res.status).toBe(200);
        expect(res.body).toEqual([{ subOrgId: 'register', orgName: 'CIBG', publishedVersion: 1 }]);
      });
  });

  it('reference: reads the feature flags for any caller', async () => {
    const correlationId = 'pact-gateway-reference-flags';
    await pacts.reference
      .addInteraction()
      .given('the flag herregistratie-aanvragen is on')
      .uponReceiving('a proxied request for the feature flags')
      .withRequest('GET', '/api/v1/flags', (b) => b.headers(forwarded(drafter('900000456'), correlationId)))
      .willRespondWith(200, (b) => b.jsonBody(eachLike({ key: like('herregistratie-aanvragen'), enabled: like(true) })))
      .executeTest(async (server) => {
        relays.reference.to(server.port);
        const res = await call('/api/v1/flags', { 'X-Subject': '900000456' }, correlationId);
        expect(res.status).toBe(200);
        expect(res.body).toEqual([{ key: 'herregistratie-aanvragen', enabled: true }]);
      });
  });

  it('audit: reads the audit trail filtered by action for an admin', async () => {
    const correlationId = 'pact-gateway-audit-trail';
    await pacts.audit
      .addInteraction()
      .given('an audit entry of a flag change')
      .uponReceiving('a proxied request for the audit trail of flag changes by an admin')
      .withRequest('GET', '/api/v1/admin/audit', (b) =>
        b.query({ action: 'flag:set' }).headers(forwarded(admin, correlationId)),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody(
          eachLike({
            at: regex('^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$', '2026-11-20T10:15:30.000Z'),
            action: 'flag:set',
            resource: like('flag/herregistratie-aanvragen'),
            decision: like('allow'),
            role: like('admin'),
            correlationId: like('c-1'),
          }),
        ),
      )
      .executeTest(async (server) => {
        relays.audit.to(server.port);
        const res = await call(
          '/api/v1/admin/audit?action=flag:set',
          { 'X-Subject': '100000001', 'X-Role': 'admin' },
          correlationId,
        );
        expect(res.status).toBe(200);
        expect(res.body).toEqual([
          {
            at: '2026-11-20T10:15:30.000Z',
            action: 'flag:set',
            resource: 'flag/herregistratie-aanvragen',
            decision: 'allow',
            role: 'admin',
            correlationId: 'c-1',
          },
        ]);
      });
  });
});

/** A service's readiness as the gateway's system status reads it: the answer's status and its checks. */
const ready = (service: Service, checks: Record<string, boolean>) => (pact: PactV4) =>
  pact
    .addInteraction()
    .given('the service is up')
    .uponReceiving(`a readiness probe of ${service}`)
    .withRequest('GET', '/health/ready')
    .willRespondWith(200, (b) => b.jsonBody({ checks: like(checks) }));

/** A service's own description as the gateway merges it: its paths and its component schemas. */
const description = (service: Service, path: string) => (pact: PactV4) =>
  pact
    .addInteraction()
    .given('the service is up')
    .uponReceiving(`a request for the description of ${service}`)
    .withRequest('GET', '/openapi.json')
    .willRespondWith(200, (b) =>
      b.jsonBody({ paths: like({ [path]: like({}) }), components: like({ schemas: like({}) }) }),
    );

describe("gateway → every service: the gateway's own calls", () => {
  it("composes the system status from each service's readiness and the case mirror's status", async () => {
    const correlationId = 'pact-gateway-system-status';
    const signed = signedIdentity({ identity: null, service: { service: 'gateway' }, correlationId });
    const mirror = (pact: PactV4) =>
      pact
        .addInteraction()
        .given('the case mirror is off')
        .uponReceiving('a request for the case mirror status')
        .withRequest('GET', '/internal/case-mirror/status', (b) =>
          b.headers({
            'x-internal-identity': regex(signed.pattern, signed.example),
            'x-correlation-id': correlationId,
            accept: 'application/json',
          }),
        )
        .willRespondWith(200, (b) =>
          b.jsonBody({
            enabled: like(false),
            zaaksysteem: like('not-configured'),
            backlog: integer(0),
            diverged: integer(0),
            pastWindow: integer(0),
          }),
        );
    const both = (pact: PactV4) => {
      ready('applications', { database: true, events: true })(pact);
      return mirror(pact);
    };
    await withServices(
      [
        ['applications', both],
        ['documents', ready('documents', { database: true, events: true, storage: true })],
        ['letters', ready('letters', { database: true, events: true })],
        ['reference', ready('reference', { database: true, events: true })],
        ['audit', ready('audit', { database: true, events: true })],
      ],
      async () => {
        const res = await call('/api/v1/admin/system', { 'X-Subject': '100000001', 'X-Role': 'admin' }, correlationId);
        expect(res.status).toBe(200);
        expect(res.body.services.map((s: { name: string; ready: boolean }) => [s.name, s.ready])).toEqual(
          ['gateway', ...SERVICES].map((name) => [name, true]),
        );
        expect(res.body.dependencies).toEqual([
          { name: 'postgresql', status: 'ok' },
          { name: 'nats', status: 'ok' },
          { name: 's3', status: 'ok' },
          { name: 'zaaksysteem', status: 'not-configured' },
          { name: 'identity-provider', status: 'not-configured' },
        ]);
        expect(res.body.caseMirror).toEqual({ enabled: false, backlog: 0, diverged: 0, pastWindow: 0 });
      },
    );
  });

  it("merges every service's own description into the public one", async () => {
    const paths: Record<Service, string> = {
      applications: '/api/v1/applications',
      documents: '/api/v1/uploads/categories',
      letters: '/api/v1/admin/org-templates',
      reference: '/api/v1/flags',
      audit: '/api/v1/admin/audit',
    };
    await withServices(
      SERVICES.map((service) => [service, description(service, paths[service])]),
      async () => {
        const res = await call('/openapi.json', {}, 'pact-gateway-openapi');
        expect(res.status).toBe(200);
        // The public description names its paths below its server, /api/v1.
        const merged = Object.values(paths).map((path) => path.replace(/^\/api\/v1/, ''));
        expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(merged));
      },
    );
  });
});

describe("gateway → every service: the breaker's probe", () => {
  it('closes an open breaker once the service answers its liveness probe', async () => {
    const live = (service: Service) => (pact: PactV4) =>
      pact
        .addInteraction()
        .given('the service is up')
        .uponReceiving(`a liveness probe of ${service} while its breaker is open`)
        .withRequest('GET', '/health')
        .willRespondWith(200, (b) => b.jsonBody({ status: 'ok' }));
    await withServices(
      SERVICES.map((service) => [service, live(service)]),
      async () => {
        // As after a timeout (ADR 0015): the breaker opens and probes the service until it answers.
        for (const service of SERVICES) gateway.context.upstreams[service].breaker.tripped();
        await eventually(async () =>
          SERVICES.every((service) => !gateway.context.upstreams[service].breaker.isOpen()) ? true : undefined,
        );
      },
    );
  });
});

describe('the pacts', () => {
  it.each(SERVICES)('writes the pact gateway-%s committed in pacts/ (npm run pacts:update rewrites it)', (service) => {
    const { written, committed } = outputs[service].written();
    expect(written).toEqual(committed);
  });
});
