import { randomUUID } from 'node:crypto';
import { asUser, eventually, practitioner } from '@register/testkit';
import { enqueueEvent } from '@register/service-kit';
import { startLettersSystem, type LettersSystem } from './support/system';

// The letters service on its own: no applications or documents service answers (their URLs lead nowhere).
let h: LettersSystem;
beforeAll(async () => {
  h = await startLettersSystem();
});
afterAll(async () => h.close());

describe('health probes', () => {
  it('when asked without an identity, then /health answers ok', async () => {
    const res = await fetch(`${h.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', service: 'letters' });
  });

  it('when the database and NATS are up and the decisions consumer pulls, then /health/ready answers 200', async () => {
    const body = await eventually(async () => {
      const res = await fetch(`${h.url}/health/ready`);
      return res.status === 200 ? ((await res.json()) as object) : undefined;
    });
    expect(body).toEqual({
      status: 'ready',
      service: 'letters',
      checks: { database: true, events: true, 'decisions-consumer': true, accepting: true },
    });
  });
});

describe('/api/v1 without the gateway', () => {
  it('when the gateway signature is missing, then 401 unauthenticated', async () => {
    const res = await fetch(`${h.url}/api/v1/brief`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { type: string }).type).toBe('/problems/unauthenticated');
  });

  it('when a signed identity asks for a path letters does not have, then a bare 404', async () => {
    const res = await fetch(`${h.url}/api/v1/brief/onbekend`, {
      headers: asUser(practitioner('900000001', 'drafter')),
    });
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('');
  });

  it(
    'when the shared brief is not written yet and the applications ' +
      'service cannot be reached, then 503 unavailable, not an error',
    async () => {
      const res = await fetch(`${h.url}/api/v1/brief`, { headers: asUser(practitioner('900000001', 'drafter')) });
      expect(res.status).toBe(503);
      expect(((await res.json()) as { type: string }).type).toBe('/problems/unavailable');
    },
  );

  it(
    'when the letterheads are listed a page at a time, ' +
      'then each page holds limit rows and links to the next while rows remain (ADR 0014)',
    async () => {
      const admin = asUser(practitioner('900000003', 'admin'));
      const first = await fetch(`${h.url}/api/v1/admin/org-templates?limit=1`, { headers: admin });
      expect(first.status).toBe(200);
      expect(((await first.json()) as Array<{ subOrgId: string }>).map((t) => t.subOrgId)).toEqual(['register']);
      const link = first.headers.get('link');
      expect(link).toMatch(/^<\/api\/v1\/admin\/org-templates\?limit=1&cursor=[^>]+>; rel="next"$/);
      const second = await fetch(`${h.url}${/<([^>]+)>/.exec(link!)![1]}`, { headers: admin });
      expect(((await second.json()) as Array<{ subOrgId: string }>).map((t) => t.subOrgId)).toEqual([
        'register-buitenland',
      ]);
      expect(second.headers.get('link')).toBeNull();
      for (const [query, field] of [
        ['limit=0', 'limit'],
        ['limit=1001', 'limit'],
        ['cursor=not-ours', 'cursor'],
      ]) {
        const res = await fetch(`${h.url}/api/v1/admin/org-templates?${query}`, { headers: admin });
        expect(res.status).toBe(400);
        expect(((await res.json()) as { errors: Array<{ field: string }> }).errors.map((e) => e.field)).toEqual([
          field,
        ]);
      }
    },
  );

  it('when the shipped letterheads are read, then they are there without any neighbour', async () => {
    const res = await fetch(`${h.url}/api/v1/admin/org-templates`, {
      headers: asUser(practitioner('900000003', 'admin')),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Array<{ subOrgId: string }>).map((t) => t.subOrgId)).toEqual([
      'register',
      'register-buitenland',
    ]);
  });
});

describe('the outbox relay', () => {
  it('when an event is written to the outbox, then it is published with its id as Nats-Msg-Id', async () => {
    // A subject of its own, in the run's own stream (deleted at the run's end). Not purged afterwards: a purge by
    // subject on nats-server before 2.9.15 moves every consumer of the stream past its pending messages.
    const subject = `register.letters.test-${randomUUID()}`;
    const envelope = await enqueueEvent(h.db, subject, 'test', { ok: true }, null);
    const msg = await eventually(() =>
      h.events.jsm.streams.getMessage(h.events.stream, { last_by_subj: h.events.prefix + subject }).then(
        (m) => m ?? undefined,
        () => undefined,
      ),
    );
    expect(msg.json<{ id: string }>().id).toBe(envelope.id);
    expect(msg.header?.get('Nats-Msg-Id')).toBe(envelope.id);
  });
});

describe('GET /openapi.json', () => {
  it(
    'when the description is read, then every letters route but the preview, ' +
      'the PDF and the test letter, each with a summary and description',
    async () => {
      const doc = (await (await fetch(`${h.url}/openapi.json`)).json()) as {
        info: { title: string };
        paths: Record<
          string,
          Record<
            string,
            { summary?: string; description?: string; requestBody?: { content: Record<string, { example?: unknown }> } }
          >
        >;
      };
      expect(doc.info.title).toBe('letters');
      expect(Object.keys(doc.paths).sort()).toEqual([
        '/api/v1/admin/org-template/{subOrgId}',
        '/api/v1/admin/org-template/{subOrgId}/publish',
        '/api/v1/admin/org-template/{subOrgId}/rollback/{version}',
        '/api/v1/admin/org-templates',
        '/api/v1/brief',
        '/api/v1/brief/approve',
        '/api/v1/brief/reject',
        '/api/v1/brief/reset',
        '/api/v1/brief/reveal-registernummer',
        '/api/v1/brief/send',
        '/api/v1/brief/submit',
      ]);
      const operations = Object.values(doc.paths).flatMap((p) => Object.values(p));
      expect(operations).toHaveLength(13);
      for (const op of operations) {
        expect(op.summary).toBeTruthy();
        expect(op.description).toBeTruthy();
        if (op.requestBody) expect(op.requestBody.content['application/json']?.example).toBeDefined();
      }
    },
  );
});
