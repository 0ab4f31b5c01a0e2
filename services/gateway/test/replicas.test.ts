import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import {
  asUser,
  createTestDatabase,
  eventually,
  natsUrl,
  practitioner,
  removeBucket,
  startNeighbour,
  startService,
  systemEvents,
  testS3,
  type Neighbour,
  type TestDatabase,
  type TestService,
} from '@register/testkit';
import type { Context } from '../src/context';
import { start } from '../src/main';
import { startTcpBalancer, type TcpBalancer } from './support/tcp-balancer';

// issue 14 §4: two copies of every service but the gateway on one database each and one NATS, under load;
// the gateway balances over the copies (comma-separated URLs), the services reach each other through a TCP
// balancer (a Kubernetes Service's part). One copy of applications and of audit is killed mid-load.
const NAMES = ['audit', 'reference', 'documents', 'applications', 'letters'] as const;
type Name = (typeof NAMES)[number];
const run = randomUUID().replace(/-/g, '').slice(0, 8);
// A stream, durable consumers and a bucket of its own (ADR 0160).
const events = systemEvents(`rep_${run}`);
const bucket = `documents-rep-${run}`;

const copies = {} as Record<Name, Neighbour[]>;
const balancers = {} as Record<Name, TcpBalancer>;
const databases = {} as Record<Name, TestDatabase>;
let gateway: TestService<Context>;

function envOf(name: Name): Record<string, string> {
  const s3 = testS3();
  const urls = {
    REFERENCE_URL: balancers.reference.url,
    DOCUMENTS_URL: balancers.documents.url,
    APPLICATIONS_URL: balancers.applications.url,
  };
  const own: Record<Name, Record<string, string>> = {
    audit: {},
    reference: {},
    documents: {
      ...urls,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY: s3.accessKey,
      S3_SECRET_KEY: s3.secretKey,
      S3_BUCKET: bucket,
    },
    applications: urls,
    letters: urls,
  };
  return { ...events.env[name], ...own[name], DB_POOL_MAX: '5', METRICS_PORT: 'off' };
}

beforeAll(async () => {
  for (const name of NAMES) balancers[name] = await startTcpBalancer();
  for (const name of NAMES) {
    databases[name] = await createTestDatabase(`rep_${name}`);
    copies[name] = [];
    for (let i = 0; i < 2; i++) {
      const copy = await startNeighbour(name, { env: envOf(name), database: databases[name] });
      copies[name].push(copy);
      balancers[name].backends.push(copy.url);
    }
  }
  const list = (name: Name) => copies[name].map((c) => c.url).join(',');
  gateway = await startService(start, {
    name: 'gateway',
    env: {
      APPLICATIONS_URL: list('applications'),
      DOCUMENTS_URL: list('documents'),
      LETTERS_URL: list('letters'),
      REFERENCE_URL: list('reference'),
      AUDIT_URL: list('audit'),
      METRICS_PORT: 'off',
      ...events.env.gateway,
    },
  });
}, 240_000);

afterAll(async () => {
  await gateway?.close();
  for (const name of [...NAMES].reverse()) for (const copy of copies[name] ?? []) await copy.stop();
  for (const name of NAMES) await balancers[name]?.close();
  for (const name of NAMES) await databases[name]?.drop();
  await events.remove(natsUrl());
  await removeBucket(bucket);
}, 120_000);

async function query<R extends object>(name: Name, text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: databases[name].url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

const json = { 'content-type': 'application/json' };
const admin = { 'X-Subject': '900000003', 'X-Role': 'admin' };

async function call(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> | null }> {
  const init: RequestInit = { method, headers: body instanceof FormData ? headers : { ...headers, ...json } };
  if (body !== undefined) init.body = body instanceof FormData ? body : JSON.stringify(body);
  const res = await fetch(`${gateway.url}${path}`, { ...init, signal: AbortSignal.timeout(30_000) }).catch(() => null);
  if (!res) return { status: 0, body: null };
  const text = await res.text();
  return { status: res.status, body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : null };
}

/** A practitioner's intake with one upload, submitted; what the client was told. */
async function submitOne(
  n: number,
): Promise<{ id: string; documentId: string; submitted: boolean; correlationId: string }> {
  const subject = String(910_000_000 + n);
  const correlationId = `rep-${run}-${n}`;
  const me = { 'X-Subject': subject, 'X-Role': 'drafter', 'X-Correlation-Id': correlationId };
  const created = await call('POST', '/api/v1/applications', me, { type: 'intake' });
  const form = new FormData();
  form.set('wizardId', 'intake');
  form.set('categoryId', 'diploma');
  form.set('localId', randomUUID());
  form.set(
    'file',
    new Blob([Buffer.from(`%PDF-1.4\n${'x'.repeat(300)}\n%%EOF\n`)], { type: 'application/pdf' }),
    'diploma.pdf',
  );
  const upload = await call('POST', '/api/v1/uploads', me, form);
  const id = String(created.body?.['id'] ?? '');
  const documentId = String(upload.body?.['documentId'] ?? '');
  if (created.status !== 201 || upload.status !== 201) return { id, documentId, submitted: false, correlationId };
  const submit = await call('POST', `/api/v1/applications/${id}/submit`, me, {
    diplomaHerkomst: 'handmatig',
    uren: 3000,
    documents: [{ categoryId: 'diploma', channel: 'digitaal', documentId }],
  });
  return { id, documentId, submitted: submit.status === 200, correlationId };
}

/** Every event of the system's stream carrying one of this test's correlation ids: id, subject, correlation id. */
async function streamEvents(): Promise<
  Array<{ id: string; subject: string; correlationId: string; data: Record<string, unknown> }>
> {
  const nc = await connect({ servers: natsUrl() });
  try {
    const js = jetstream(nc);
    const reader = await js.consumers.get(events.stream);
    const found: Array<{ id: string; subject: string; correlationId: string; data: Record<string, unknown> }> = [];
    for (;;) {
      const batch = await reader.fetch({ max_messages: 500, expires: 1000 });
      let n = 0;
      for await (const m of batch) {
        n += 1;
        const envelope = JSON.parse(m.string()) as {
          id: string;
          correlationId: string | null;
          data: Record<string, unknown>;
        };
        if (envelope.correlationId?.startsWith(`rep-${run}-`))
          found.push({
            id: envelope.id,
            subject: m.subject.slice(events.prefix.length),
            correlationId: envelope.correlationId,
            data: envelope.data,
          });
      }
      if (n === 0) return found;
    }
  } finally {
    await nc.close();
  }
}

describe('two copies of every service behind the gateway', () => {
  it(
    'when writes run while a copy of applications and of audit is killed, ' +
      'then every success is stored, linked, published and audited exactly once',
    async () => {
      const total = 60;
      const results: Awaited<ReturnType<typeof submitOne>>[] = [];
      const flagSets: Array<{ enabled: boolean; status: number; correlationId: string }> = [];
      let next = 0;
      const worker = async () => {
        while (next < total) {
          const n = next++;
          if (n === Math.floor(total / 3)) {
            // A crash mid-load: nothing the client was told succeeded may be lost.
            await copies.applications[1]!.kill();
            await copies.audit[1]!.kill();
          }
          if (n % 6 === 0) {
            const correlationId = `rep-${run}-flag-${n}`;
            const enabled = n % 12 === 0;
            const res = await call(
              'PUT',
              '/api/v1/admin/flags/herregistratie-aanvragen',
              { ...admin, 'X-Correlation-Id': correlationId },
              { enabled },
            );
            flagSets.push({ enabled, status: res.status, correlationId });
          }
          results.push(await submitOne(n));
        }
      };
      await Promise.all(Array.from({ length: 6 }, worker));

      const submitted = results.filter((r) => r.submitted);
      // Most writes succeed (a few may meet the killed copies: the client was told they failed).
      expect(submitted.length).toBeGreaterThan(total / 2);

      // Stored once, and every linked document linked to its application (the link job is done).
      const ids = submitted.map((r) => r.id);
      const rows = await query<{ id: string; n: number }>(
        'applications',
        'SELECT id, count(*)::int AS n FROM applications WHERE id = ANY($1) GROUP BY id',
        [ids],
      );
      expect(rows.length).toBe(submitted.length);
      await eventually(
        async () =>
          (await query<{ n: number }>('applications', 'SELECT count(*)::int AS n FROM document_link_jobs'))[0]?.n === 0
            ? true
            : undefined,
        60_000,
      );
      const linked = await query<{ id: string; linked_application_id: string }>(
        'documents',
        'SELECT id, linked_application_id FROM document WHERE id = ANY($1)',
        [submitted.map((r) => r.documentId)],
      );
      expect(Object.fromEntries(linked.map((l) => [l.id, l.linked_application_id]))).toEqual(
        Object.fromEntries(submitted.map((r) => [r.documentId, r.id])),
      );

      // Published once: every outbox empty, one application.submitted per submitted application, no event twice.
      for (const name of ['applications', 'documents', 'reference', 'letters'] as const) {
        await eventually(
          async () =>
            (await query<{ n: number }>(name, 'SELECT count(*)::int AS n FROM outbox'))[0]?.n === 0 ? true : undefined,
          60_000,
        );
      }
      const events = await streamEvents();
      const eventIds = events.map((e) => e.id);
      expect(new Set(eventIds).size).toBe(eventIds.length);
      const submittedEvents = events.filter((e) => e.subject === 'register.applications.submitted');
      // A submit whose answer died with the killed copy may have committed too: published once like the rest.
      const submittedOnce = submittedEvents.map((e) => e.correlationId);
      expect(new Set(submittedOnce).size).toBe(submittedOnce.length);
      expect(submittedOnce).toEqual(expect.arrayContaining(submitted.map((r) => r.correlationId)));

      // Audited once: every audit event of the stream is one row, no more.
      const auditEvents = events.filter((e) => e.subject.startsWith('register.audit.'));
      expect(auditEvents.length).toBeGreaterThan(0);
      const stored = await eventually(async () => {
        const r = await query<{ event_id: string }>(
          'audit',
          'SELECT event_id FROM authz_audit WHERE correlation_id LIKE $1',
          [`rep-${run}-%`],
        );
        return r.length >= auditEvents.length ? r : undefined;
      }, 60_000);
      expect(stored.map((r) => r.event_id).sort()).toEqual(auditEvents.map((e) => e.id).sort());

      // Every flag change the client was told of is one audit row and one flag-changed event.
      const flagOk = flagSets.filter((f) => f.status === 204);
      expect(flagOk.length).toBeGreaterThan(0);
      const flagEvents = events
        .filter((e) => e.subject === 'register.reference.flag-changed')
        .map((e) => e.correlationId);
      expect(new Set(flagEvents).size).toBe(flagEvents.length);
      expect(flagEvents).toEqual(expect.arrayContaining(flagOk.map((f) => f.correlationId)));
    },
  );

  it('when a flag is set through one copy, then both copies of reference answer it', async () => {
    for (const enabled of [false, true]) {
      expect((await call('PUT', '/api/v1/admin/flags/herregistratie-aanvragen', admin, { enabled })).status).toBe(204);
      // Each copy serves flags from memory, refreshed by the flag-changed event: both follow the change.
      for (const copy of copies.reference) {
        await eventually(async () => {
          const res = await fetch(`${copy.url}/api/v1/flags`, { headers: asUser(practitioner('900000001')) });
          const flags = (await res.json()) as Array<{ key: string; enabled: boolean }>;
          return flags.find((f) => f.key === 'herregistratie-aanvragen')?.enabled === enabled ? true : undefined;
        }, 10_000);
      }
    }
  });
});
