import { randomUUID } from 'node:crypto';
import { eventually } from '@register/testkit';
import { startSystem, users, type TestSystem } from './support/system';
import { submitIntake } from './support/through-gateway';

let sys: TestSystem;
beforeAll(async () => {
  sys = await startSystem({ validatingProxy: true });
}, 120_000);
afterAll(async () => sys?.close(), 60_000);
afterEach(async () => expect(await sys.violations()).toEqual([]));

// Every call goes through the validating proxy (ADR 0226) and must keep to the committed description.
const call = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  fetch(`${sys.gateway}${path}`, init);
// What the description does not describe goes to the gateway itself: a call it does not allow, sent on purpose
// (no identity, a malformed parameter or body, a file above every limit), and the pages outside the API.
const direct = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  fetch(`${sys.direct}${path}`, init);
const json = { 'content-type': 'application/json' };

interface AuditRow {
  at: string;
  action: string;
  resource: string;
  decision: string;
  role: string;
  correlationId: string;
}
async function auditRows(): Promise<AuditRow[]> {
  const res = await call('/api/v1/admin/audit?limit=1000', { headers: users.admin });
  expect(res.status).toBe(200);
  return (await res.json()) as AuditRow[];
}

describe('the validating proxy in front of the gateway (ADR 0226)', () => {
  it(
    'when a call breaks the description, ' + 'then the proxy reports the violation and passes on the answer unchanged',
    async () => {
      const res = await call('/api/v1/applications?limit=0', { headers: { 'X-Subject': '900000123' } });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { errors: Array<{ field: string }> }).errors.map((e) => e.field)).toEqual([
        'limit',
      ]);
      expect(await sys.violations()).toEqual([expect.stringContaining('request.query.limit')]);
    },
  );
});

describe('health and description', () => {
  it('when every service runs, then /health/ready is 200 and /health is 200', async () => {
    expect((await call('/health/ready')).status).toBe(200);
    expect((await call('/health')).status).toBe(200);
  });

  it(
    'when /openapi.json is read, then it is v1 and holds the ' +
      'paths of every service, relative to its /api/v1 server',
    async () => {
      const doc = (await (await direct('/openapi.json')).json()) as {
        info: { version: string };
        servers: Array<{ url: string }>;
        paths: Record<string, unknown>;
      };
      expect(doc.info.version).toBe('v1');
      expect(doc.servers).toEqual([{ url: '/api/v1', description: expect.any(String) }]);
      for (const p of ['/me', '/stamdata/{table}', '/admin/audit', '/applications', '/uploads/categories', '/health']) {
        expect(Object.keys(doc.paths)).toContain(p);
      }
    },
  );

  it('when /docs is opened, then Swagger UI is served', async () => {
    const res = await direct('/docs/');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('swagger-ui');
  });

  it('when a problem type page is opened, then it explains the slug; an unknown slug is a bare 404', async () => {
    const page = await direct('/problems/idempotency-key-reused');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Idempotency-Key');
    expect((await direct('/problems/nope')).status).toBe(404);
  });
});

describe('GET /api/v1/me', () => {
  it.each([
    ['drafter', ['applications:own', 'brief:edit', 'brief:reveal-registernummer']],
    ['approver', ['applications:own', 'brief:approve']],
    [
      'admin',
      [
        'applications:own',
        'audit:read',
        'cases:admin',
        'flags:write',
        'orgtemplate:edit',
        'stamdata:read',
        'uploads:admin-delete',
      ],
    ],
    ['beoordelaar', ['CanBeoordelen', 'stamdata:read']],
    ['medewerker', []],
    ['adminSeam', ['applications:own', 'brief:edit', 'brief:reveal-registernummer', 'uploads:admin-delete']],
  ] as const)('when the caller is %s, then exactly its capabilities in code-point order', async (kind, expected) => {
    const res = await call('/api/v1/me', { headers: users[kind] });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ capabilities: expected });
  });

  it('when a practitioner is also a beoordelaar, then the capabilities are the union', async () => {
    const res = await call('/api/v1/me', { headers: { ...users.approver, ...users.beoordelaar } });
    expect(await res.json()).toEqual({
      capabilities: ['CanBeoordelen', 'applications:own', 'brief:approve', 'stamdata:read'],
    });
  });

  it('when there is no identity, then 401 problem carrying the correlation id', async () => {
    const res = await direct('/api/v1/me', { headers: { 'X-Correlation-Id': 'portal-req-42' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.headers.get('x-correlation-id')).toBe('portal-req-42');
    expect(await res.json()).toMatchObject({
      type: '/problems/unauthenticated',
      status: 401,
      instance: '/api/v1/me',
      correlationId: 'portal-req-42',
    });
  });

  it(
    'when the correlation id is malformed or the subject invalid, ' + 'then a new id is made and 401 still answers',
    async () => {
      const res = await call('/api/v1/me', {
        headers: { 'X-Correlation-Id': 'bad id with spaces', 'X-Subject': 'x'.repeat(65) },
      });
      expect(res.status).toBe(401);
      const id = res.headers.get('x-correlation-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(((await res.json()) as { correlationId: string }).correlationId).toBe(id);
    },
  );
});

describe('PUT /api/v1/admin/flags/herregistratie-aanvragen', () => {
  it(
    'when a drafter sets it, then 403; when an admin does, ' +
      'then 204 and the audit log shows it with the correlation id',
    async () => {
      const denied = await call('/api/v1/admin/flags/herregistratie-aanvragen', {
        method: 'PUT',
        headers: { ...users.drafter, ...json },
        body: '{"enabled":false}',
      });
      expect(denied.status).toBe(403);
      const correlationId = `flag-${randomUUID()}`;
      const res = await call('/api/v1/admin/flags/herregistratie-aanvragen', {
        method: 'PUT',
        headers: { ...users.admin, ...json, 'X-Correlation-Id': correlationId },
        body: '{"enabled":true}',
      });
      expect(res.status).toBe(204);
      const row = await eventually(async () => (await auditRows()).find((r) => r.correlationId === correlationId));
      expect(row).toEqual({
        at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        action: 'flag:set',
        resource: 'flag/herregistratie-aanvragen',
        decision: 'allow',
        role: 'admin',
        correlationId,
      });
    },
  );
});

describe('denials the spec audits (Authentication 6)', () => {
  it(
    'when a caller lacks the capability of the reveal or an organisation-admin route, ' +
      'then 403 and one deny row with the route and role',
    async () => {
      const reveal = `deny-reveal-${randomUUID()}`;
      const template = `deny-template-${randomUUID()}`;
      const denied = await call('/api/v1/brief/reveal-registernummer', {
        method: 'POST',
        headers: { ...users.approver, 'X-Step-Up': 'true', 'X-Correlation-Id': reveal },
      });
      expect(denied.status).toBe(403);
      // A case handler without roles has no role to name. The description admits only a practitioner here: the
      // refused kind of caller is sent on purpose, to the gateway itself.
      const noRoles = await direct('/api/v1/admin/org-templates', {
        headers: { 'X-Medewerker': 'mw-003', 'X-Correlation-Id': template },
      });
      expect(noRoles.status).toBe(403);

      const rows = await eventually(async () => {
        const all = (await auditRows()).filter((r) => r.correlationId === reveal || r.correlationId === template);
        return all.length >= 2 ? all : undefined;
      });
      expect(rows.map(({ at: _at, ...row }) => row).sort((a, b) => a.action.localeCompare(b.action))).toEqual([
        {
          action: 'orgtemplate:edit',
          resource: '/api/v1/admin/org-templates',
          decision: 'deny',
          role: 'none',
          correlationId: template,
        },
        {
          action: 'reveal-registernummer',
          resource: '/api/v1/brief/reveal-registernummer',
          decision: 'deny',
          role: 'approver',
          correlationId: reveal,
        },
      ]);
    },
  );
});

describe('Idempotency-Key (ADR 0013)', () => {
  const FLAG = '/api/v1/admin/flags/herregistratie-aanvragen';
  const put = (key: string, body: string, correlationId: string = randomUUID(), to = call) =>
    to(FLAG, {
      method: 'PUT',
      headers: { ...users.admin, ...json, 'Idempotency-Key': key, 'X-Correlation-Id': correlationId },
      body,
    });
  const flagSets = async (correlationIds: string[]) => {
    await sys.auditSettled(['reference']);
    return (await auditRows()).filter((r) => r.action === 'flag:set' && correlationIds.includes(r.correlationId));
  };
  const keyState = async (key: string) =>
    (
      await sys.query<{ state: string }>('gateway', 'SELECT state FROM idempotency_record WHERE idempotency_key = $1', [
        key,
      ])
    )[0]?.state;

  // The flag stays on, as shipped, whatever a test did.
  afterEach(async () => {
    expect(
      (await call(FLAG, { method: 'PUT', headers: { ...users.admin, ...json }, body: '{"enabled":true}' })).status,
    ).toBe(204);
  });

  it(
    'when a repeat arrives while the first request still runs, then 409 idempotency-request-in-progress; ' +
      'once the first is done, a repeat replays it and the operation ran once',
    async () => {
      const key = randomUUID();
      const ids = [`idem-first-${randomUUID()}`, `idem-during-${randomUUID()}`, `idem-after-${randomUUID()}`];
      // The reference service is held (SIGSTOP): the first request has its claim and waits for the answer.
      sys.pause('reference');
      let first: Promise<Response>;
      try {
        first = put(key, '{"enabled":true}', ids[0]);
        await eventually(async () => ((await keyState(key)) === 'running' ? true : undefined));
        const during = await put(key, '{"enabled":true}', ids[1]);
        expect(during.status).toBe(409);
        expect(await during.json()).toMatchObject({
          type: '/problems/idempotency-request-in-progress',
          status: 409,
          correlationId: ids[1],
        });
      } finally {
        sys.resume('reference');
      }
      const done = await first;
      expect(done.status).toBe(204);
      expect(done.headers.get('idempotent-replayed')).toBeNull();
      const after = await put(key, '{"enabled":true}', ids[2]);
      expect(after.status).toBe(204);
      expect(after.headers.get('idempotent-replayed')).toBe('true');
      expect((await flagSets(ids)).map((r) => r.correlationId)).toEqual([ids[0]]);
    },
  );

  it(
    'when 50 identical keyed requests run at once, then one of them runs, ' +
      'the others are 409 or replays, and the operation took effect once',
    async () => {
      const key = randomUUID();
      const ids = Array.from({ length: 50 }, () => `idem-${randomUUID()}`);
      const responses = await Promise.all(ids.map((id) => put(key, '{"enabled":true}', id)));
      const outcomes = responses.map((r) =>
        r.status === 204 && r.headers.get('idempotent-replayed') === 'true' ? 'replayed' : String(r.status),
      );
      expect(outcomes.filter((o) => o === '204')).toHaveLength(1);
      expect(outcomes.filter((o) => o !== '204' && o !== 'replayed' && o !== '409')).toEqual([]);
      for (const r of responses.filter((x) => x.status === 409))
        expect(((await r.json()) as { type: string }).type).toBe('/problems/idempotency-request-in-progress');
      const ran = ids[outcomes.indexOf('204')]!;
      expect((await flagSets(ids)).map((r) => r.correlationId)).toEqual([ran]);
    },
  );

  it('when a key is reused with another body, then 422 and the operation does not run again', async () => {
    const key = randomUUID();
    const first = `idem-${randomUUID()}`;
    const reused = `idem-${randomUUID()}`;
    expect((await put(key, '{"enabled":true}', first)).status).toBe(204);
    const res = await put(key, '{"enabled":false}', reused);
    expect(res.status).toBe(422);
    expect(((await res.json()) as { type: string }).type).toBe('/problems/idempotency-key-reused');
    expect((await flagSets([first, reused])).map((r) => r.correlationId)).toEqual([first]);
  });

  it.each([
    ['255 characters', 204, 'k'.repeat(255)],
    ['256 characters', 400, 'k'.repeat(256)],
    ['empty', 400, ''],
  ])('when the key is %s, then %i', async (_name, status, key) => {
    // A key the description refuses is sent on purpose: to the gateway itself.
    const res = await put(key, '{"enabled":true}', randomUUID(), status === 400 ? direct : call);
    expect(res.status).toBe(status);
    if (status === 400)
      expect(await res.json()).toMatchObject({
        type: '/problems/validation',
        errors: [expect.objectContaining({ field: 'Idempotency-Key' })],
      });
    else expect((await put(key, '{"enabled":true}')).headers.get('idempotent-replayed')).toBe('true');
  });

  it(
    'when a problem answer is replayed, ' + 'then status and body are the first ones, with the first correlation id',
    async () => {
      // A body the description refuses, sent on purpose: to the gateway itself.
      const key = randomUUID();
      const first = await direct('/api/v1/admin/flags/onbekend', {
        method: 'PUT',
        headers: { ...users.admin, ...json, 'Idempotency-Key': key },
        body: '{"enabled":"x"}',
      });
      expect(first.status).toBe(404);
      const invalid = await put(key, '{"enabled":"x"}', 'first-corr', direct);
      expect(invalid.status).toBe(400);
      const firstBody = await invalid.text();
      const again = await put(key, '{"enabled":"x"}', 'second-corr', direct);
      expect(again.status).toBe(400);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.headers.get('x-correlation-id')).toBe('second-corr');
      expect(await again.text()).toBe(firstBody);
      expect(JSON.parse(firstBody).correlationId).toBe('first-corr');
    },
  );

  it('when the same key is used by another caller, then it is a separate request', async () => {
    const key = randomUUID();
    expect((await put(key, '{"enabled":true}')).status).toBe(204);
    const other = await call(FLAG, {
      method: 'PUT',
      headers: { 'X-Subject': '900000099', 'X-Role': 'admin', ...json, 'Idempotency-Key': key },
      body: '{"enabled":false}',
    });
    expect(other.status).toBe(204);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('Idempotency-Key on applications (ADR 0013: JSON POST, PUT, DELETE, scope, a 5xx)', () => {
  const keyed = (subject: string, method: string, path: string, key: string, body?: unknown) =>
    call(path, {
      method,
      headers: { 'X-Subject': subject, 'Idempotency-Key': key, ...(body === undefined ? {} : json) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const applicationsOf = async (subject: string) =>
    (await sys.query<{ id: string }>('applications', 'SELECT id FROM applications WHERE owner = $1', [subject])).map(
      (r) => r.id,
    );
  const subject = () => `9${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

  it(
    'when a JSON POST is repeated with its key, then the same 201, ' +
      'Location and body come back and one application exists',
    async () => {
      const me = subject();
      const key = randomUUID();
      const first = await keyed(me, 'POST', '/api/v1/applications', key, { type: 'intake' });
      expect(first.status).toBe(201);
      const body = await first.text();
      const again = await keyed(me, 'POST', '/api/v1/applications', key, { type: 'intake' });
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.headers.get('location')).toBe(first.headers.get('location'));
      expect(await again.text()).toBe(body);
      expect(await applicationsOf(me)).toEqual([JSON.parse(body).id]);
    },
  );

  it(
    'when a DELETE is repeated with its key, then the 204 is replayed instead of a 404, ' +
      'and the same key on PUT of that path is a request of its own',
    async () => {
      const me = subject();
      const { id } = (await (
        await keyed(me, 'POST', '/api/v1/applications', randomUUID(), { type: 'intake' })
      ).json()) as { id: string };
      const key = randomUUID();
      // Scoped by method: the key of this PUT does not answer the DELETE below.
      const sync = await keyed(me, 'PUT', `/api/v1/applications/${id}`, key, { draft: {}, stepIndex: 0, stepCount: 1 });
      expect(sync.status).toBe(204);
      const removed = await keyed(me, 'DELETE', `/api/v1/applications/${id}`, key);
      expect([removed.status, removed.headers.get('idempotent-replayed')]).toEqual([204, null]);
      const again = await keyed(me, 'DELETE', `/api/v1/applications/${id}`, key);
      expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([204, 'true']);
      expect(await applicationsOf(me)).toEqual([]);
      // Without the key the application is simply gone.
      expect(
        (await call(`/api/v1/applications/${id}`, { method: 'DELETE', headers: { 'X-Subject': me } })).status,
      ).toBe(404);
    },
  );

  it('when one key is used on two paths, then each runs on its own', async () => {
    const me = subject();
    const key = randomUUID();
    const created = await keyed(me, 'POST', '/api/v1/applications', key, { type: 'intake' });
    expect(created.status).toBe(201);
    const change = await keyed(me, 'POST', '/api/v1/change-requests', key, { telefoon: '0612345678' });
    expect([change.status, change.headers.get('idempotent-replayed')]).toEqual([200, null]);
    expect(((await change.json()) as { referentie: string }).referentie).toMatch(/^WV-\d{4}-\d{6}$/);
  });

  describe('the scope of a key is the whole identity and the whole target (ADR 0013)', () => {
    const keyedAs = (headers: Record<string, string>, path: string, key: string, body: unknown) =>
      call(path, {
        method: 'POST',
        headers: { ...headers, ...json, 'Idempotency-Key': key },
        body: JSON.stringify(body),
      });
    const replayed = (res: Response) => res.headers.get('idempotent-replayed');

    it('when the same key and body go to another query string, then the second is a request of its own', async () => {
      const me = subject();
      const key = randomUUID();
      const body = { telefoon: '0612345678' };
      const first = await keyedAs({ 'X-Subject': me }, '/api/v1/change-requests?poging=1', key, body);
      const second = await keyedAs({ 'X-Subject': me }, '/api/v1/change-requests?poging=2', key, body);
      expect([first.status, replayed(first), second.status, replayed(second)]).toEqual([200, null, 200, null]);
      const [a, b] = [(await first.json()) as { referentie: string }, (await second.json()) as { referentie: string }];
      expect(b.referentie).not.toBe(a.referentie);
      const again = await keyedAs({ 'X-Subject': me }, '/api/v1/change-requests?poging=2', key, body);
      expect([again.status, replayed(again)]).toEqual([200, 'true']);
      expect(((await again.json()) as { referentie: string }).referentie).toBe(b.referentie);
    });

    it(
      'when one subject sends the same key as drafter and then as approver, ' +
        "then the approver is not answered with the drafter's stored answer",
      async () => {
        const me = subject();
        const key = randomUUID();
        const body = { telefoon: '0612345678' };
        const asDrafter = await keyedAs({ 'X-Subject': me, 'X-Role': 'drafter' }, '/api/v1/change-requests', key, body);
        const asApprover = await keyedAs(
          { 'X-Subject': me, 'X-Role': 'approver' },
          '/api/v1/change-requests',
          key,
          body,
        );
        expect([asDrafter.status, asApprover.status, replayed(asApprover)]).toEqual([200, 200, null]);
        const again = await keyedAs({ 'X-Subject': me, 'X-Role': 'approver' }, '/api/v1/change-requests', key, body);
        expect(replayed(again)).toBe('true');
      },
    );

    it.each([
      ['another employee with the same roles', { 'X-Medewerker': 'mw-scope-2', 'X-Rollen': 'beoordelaar' }],
      ['the same employee with other roles', { 'X-Medewerker': 'mw-scope-1', 'X-Rollen': 'beoordelaar,teamleider' }],
    ])("when a case handler's key is sent by %s, then it is a request of its own", async (_name, other) => {
      const key = randomUUID();
      const path = `/api/v1/beoordeling/${randomUUID()}/besluit`;
      const body = { besluit: 'toekennen' };
      const first = await keyedAs({ 'X-Medewerker': 'mw-scope-1', 'X-Rollen': 'beoordelaar' }, path, key, body);
      expect([first.status, replayed(first)]).toEqual([404, null]);
      const same = await keyedAs({ 'X-Medewerker': 'mw-scope-1', 'X-Rollen': 'beoordelaar' }, path, key, body);
      expect([same.status, replayed(same)]).toEqual([404, 'true']);
      const theOther = await keyedAs(other, path, key, body);
      expect([theOther.status, replayed(theOther)]).toEqual([404, null]);
    });
  });

  it(
    'when the first answer is a 5xx from the service, ' +
      'then it is not kept: the retry with the same key runs and succeeds',
    async () => {
      const me = subject();
      const { id } = (await (
        await keyed(me, 'POST', '/api/v1/applications', randomUUID(), { type: 'intake' })
      ).json()) as { id: string };
      const form = new FormData();
      form.set('wizardId', 'intake');
      form.set('categoryId', 'diploma');
      form.set(
        'file',
        new Blob([Buffer.from('%PDF-1.4\n' + 'x'.repeat(2000))], { type: 'application/pdf' }),
        'diploma.pdf',
      );
      const uploaded = await call('/api/v1/uploads', { method: 'POST', headers: { 'X-Subject': me }, body: form });
      expect(uploaded.status).toBe(201);
      const { documentId } = (await uploaded.json()) as { documentId: string };
      const submit = {
        diplomaHerkomst: 'handmatig',
        uren: 3000,
        documents: [{ categoryId: 'diploma', channel: 'digitaal', documentId }],
      };
      const key = randomUUID();
      // The applications service answers 503 itself while the documents service it checks with is down.
      await sys.system.stop('documents');
      try {
        const failed = await keyed(me, 'POST', `/api/v1/applications/${id}/submit`, key, submit);
        expect(failed.status).toBe(503);
        expect(((await failed.json()) as { type: string }).type).toBe('/problems/unavailable');
        expect(
          await sys.query('gateway', 'SELECT 1 FROM idempotency_record WHERE idempotency_key = $1', [key]),
        ).toEqual([]);
      } finally {
        await sys.system.start('documents');
      }
      const retried = await keyed(me, 'POST', `/api/v1/applications/${id}/submit`, key, submit);
      expect([retried.status, retried.headers.get('idempotent-replayed')]).toEqual([200, null]);
      expect(((await retried.json()) as { status: { tag: string } }).status.tag).toBe('Ingediend');
    },
    90_000,
  );
});

describe('Idempotency-Key on uploads (streamed through the gateway)', () => {
  const MIB = 1024 * 1024;
  const pdf = (bytes: number, fill: number) =>
    Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(bytes - 9, fill)]);
  // A retry sends the same bytes (ADR 0013 compares raw bodies), so the multipart boundary is fixed here.
  const boundary = 'register-test-boundary';
  const upload = (file: Buffer, key?: string, to = call) => {
    const field = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const body = Buffer.concat([
      Buffer.from(field('wizardId', 'intake') + field('categoryId', 'overig')),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; ` +
          `filename="bewijs.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const headers = {
      'X-Subject': '900000011',
      'Content-Type': `multipart/form-data; boundary=${boundary}`,
      ...(key ? { 'Idempotency-Key': key } : {}),
    };
    return to('/api/v1/uploads', { method: 'POST', headers, body });
  };

  it(
    'when a keyed upload is repeated, ' + 'then the same document is replayed; another file with that key is 422',
    async () => {
      const key = randomUUID();
      const first = await upload(pdf(3 * MIB, 1), key);
      expect(first.status).toBe(201);
      const document = (await first.json()) as { documentId: string };
      const again = await upload(pdf(3 * MIB, 1), key);
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(((await again.json()) as { documentId: string }).documentId).toBe(document.documentId);
      const other = await upload(pdf(3 * MIB, 2), key);
      expect(other.status).toBe(422);
      expect(((await other.json()) as { type: string }).type).toBe('/problems/idempotency-key-reused');
    },
  );

  it(
    'when an upload is larger than any category, then every try is 413, ' +
      'never 503, and a keyed retry runs again instead of being 422',
    async () => {
      // A file above every limit is sent on purpose: to the gateway itself, which streams it.
      const tooLarge = pdf(30 * MIB, 3);
      const key = randomUUID();
      for (let i = 0; i < 4; i++) {
        const plain = await upload(tooLarge, undefined, direct);
        expect(plain.status).toBe(413);
        expect(((await plain.json()) as { type: string }).type).toBe('/problems/payload-too-large');
        const keyed = await upload(tooLarge, key, direct);
        expect(keyed.status).toBe(413);
        expect(keyed.headers.get('idempotent-replayed')).toBeNull();
        await keyed.body?.cancel();
      }
      expect((await call('/health/ready')).status).toBe(200);
    },
  );
});

describe('admin delete of a case (applications → documents over events)', () => {
  it('when an admin deletes a submitted case, then its documents are gone too', async () => {
    const me = { 'X-Subject': '900000012' };
    const form = new FormData();
    form.set('wizardId', 'intake');
    form.set('categoryId', 'diploma');
    form.set(
      'file',
      new Blob([Buffer.from('%PDF-1.4\n' + 'x'.repeat(2000))], { type: 'application/pdf' }),
      'diploma.pdf',
    );
    const uploaded = await call('/api/v1/uploads', { method: 'POST', headers: me, body: form });
    expect(uploaded.status).toBe(201);
    const { documentId } = (await uploaded.json()) as { documentId: string };
    const created = await call('/api/v1/applications', {
      method: 'POST',
      headers: { ...me, ...json },
      body: JSON.stringify({ type: 'intake' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const submit = await call(`/api/v1/applications/${id}/submit`, {
      method: 'POST',
      headers: { ...me, ...json },
      body: JSON.stringify({
        diplomaHerkomst: 'handmatig',
        uren: 3000,
        documents: [{ categoryId: 'diploma', channel: 'digitaal', documentId }],
      }),
    });
    expect(submit.status).toBe(200);
    const content = () => call(`/api/v1/uploads/${documentId}/content`, { headers: me });
    expect((await content()).status).toBe(200);

    expect((await call(`/api/v1/admin/cases/${id}`, { method: 'DELETE', headers: users.admin })).status).toBe(204);
    await eventually(async () => ((await content()).status === 404 ? true : undefined));
  });
});

describe('every list takes limit and cursor (ADR 0014)', () => {
  // A practitioner of this describe's own, with two applications and two register notes.
  const subject = `8${String(Date.now()).slice(-6)}${String(Math.floor(Math.random() * 90) + 10)}`;
  const own = { 'X-Subject': subject, 'X-Role': 'drafter' };
  // Every route answering a plain array, with a caller allowed to read it.
  const LISTS: Array<[string, Record<string, string>]> = [
    ['/api/v1/applications', own],
    ['/api/v1/werkvoorraad', users.beoordelaar],
    ['/api/v1/admin/cases', users.admin],
    ['/api/v1/notes', own],
    ['/api/v1/admin/audit', users.admin],
    ['/api/v1/flags', users.drafter],
    ['/api/v1/stamdata', users.admin],
    ['/api/v1/admin/org-templates', users.admin],
  ];

  beforeAll(async () => {
    // Every list gets a second row, so each one's next page is followed: two submitted intakes (two
    // applications, two cases in the work queue), two notes in the demo register, a second flag (read into the
    // reference snapshot when a flag is set) and two audit rows.
    for (let i = 0; i < 2; i++) await submitIntake(sys.gateway, subject);
    await sys.query(
      'applications',
      `INSERT INTO demo_notes (id, subject, type, omschrijving, datum) VALUES
        ($1 || '-1', $1, 'specialisme', 'Specialisme ingeschreven', '2016-05-01'),
        ($1 || '-2', $1, 'maatregel', 'Maatregel opgelegd', '2020-01-10')`,
      [subject],
    );
    await sys.query(
      'reference',
      'INSERT INTO feature_flag (key, description, enabled) ' +
        "VALUES ('lijst-test', 'A second flag to page through', false)",
    );
    const flags = (await (await call('/api/v1/flags', { headers: users.drafter })).json()) as Array<{
      key: string;
      enabled: boolean;
    }>;
    const enabled = flags.find((f) => f.key === 'herregistratie-aanvragen')!.enabled;
    // Set twice (two audit rows), and the audit log complete before it is paged through.
    for (let i = 0; i < 2; i++) {
      const set = await call('/api/v1/admin/flags/herregistratie-aanvragen', {
        method: 'PUT',
        headers: { ...users.admin, ...json },
        body: JSON.stringify({ enabled }),
      });
      expect(set.status).toBe(204);
    }
    await sys.auditSettled(['gateway', 'applications', 'documents', 'letters', 'reference']);
  }, 60_000);

  it.each(LISTS)(
    'when %s is read with limit=1, then its first row and a ' +
      'Link whose page holds the second; the last page has no Link',
    async (path, headers) => {
      const all = await call(path, { headers });
      expect(all.status).toBe(200);
      const rows = (await all.json()) as unknown[];
      expect(rows.length).toBeGreaterThanOrEqual(2);
      const page = await call(`${path}?limit=1`, { headers });
      expect(page.status).toBe(200);
      expect(await page.json()).toEqual(rows.slice(0, 1));
      const link = page.headers.get('link');
      expect(link).toMatch(new RegExp(`^<${path.replace(/\//g, '\\/')}\\?limit=1&cursor=[^>]+>; rel="next"$`));
      const next = await call(link!.slice(1, link!.indexOf('>')), { headers });
      expect(next.status).toBe(200);
      expect(await next.json()).toEqual(rows.slice(1, 2));
      const last = await call(`${path}?limit=${rows.length}`, { headers });
      expect(await last.json()).toEqual(rows);
      expect(last.headers.get('link')).toBeNull();
    },
  );

  it.each(LISTS)(
    'when %s is read with limit=0 or a foreign cursor, then 400 naming the parameter',
    async (path, headers) => {
      for (const [query, field] of [
        ['limit=0', 'limit'],
        ['limit=1001', 'limit'],
        ['cursor=not-a-cursor-of-ours', 'cursor'],
      ]) {
        // Parameters the description refuses, sent on purpose: to the gateway itself.
        const res = await direct(`${path}?${query}`, { headers });
        expect([query, res.status]).toEqual([query, 400]);
        expect(((await res.json()) as { errors: Array<{ field: string }> }).errors.map((e) => e.field)).toEqual([
          field,
        ]);
      }
    },
  );
});

describe('a service that stops', () => {
  it(
    'when the reference service is down, then its routes answer 503 problem, the gateway stays ready, ' +
      'the other services answer and the system status names it; when it is back, the gateway recovers',
    async () => {
      await sys.system.stop('reference');
      const res = await call('/api/v1/stamdata', { headers: { ...users.admin, 'X-Correlation-Id': 'down-1' } });
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({
        type: '/problems/unavailable',
        status: 503,
        correlationId: 'down-1',
        instance: '/api/v1/stamdata',
      });
      // ADR 0200: one failed service takes no gateway out of its load balancer.
      const ready = await call('/health/ready');
      expect(ready.status).toBe(200);
      expect(((await ready.json()) as { checks: Record<string, boolean> }).checks).not.toHaveProperty('reference');
      expect((await call('/api/v1/me', { headers: users.admin })).status).toBe(200);
      expect((await call('/api/v1/admin/audit?limit=1', { headers: users.admin })).status).toBe(200);
      expect((await call('/api/v1/applications', { headers: { 'X-Subject': '900000077' } })).status).toBe(200);
      const status = (await (await call('/api/v1/admin/system', { headers: users.admin })).json()) as {
        services: Array<{ name: string; ready: boolean }>;
      };
      expect(status.services.filter((s) => !s.ready).map((s) => s.name)).toEqual(['reference']);
      await sys.system.start('reference');
      expect((await call('/api/v1/stamdata', { headers: users.admin })).status).toBe(200);
      expect((await call('/health/ready')).status).toBe(200);
    },
    60_000,
  );
});
