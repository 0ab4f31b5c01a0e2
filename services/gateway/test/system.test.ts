import { randomUUID } from 'node:crypto';
import { eventually } from '@register/testkit';
import { startSystem, users, type TestSystem } from './support/system';

let sys: TestSystem;
beforeAll(async () => {
  sys = await startSystem();
}, 120_000);
afterAll(async () => sys?.close(), 60_000);

const call = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) => fetch(`${sys.gateway}${path}`, init);
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

describe('health and description', () => {
  it('when every service runs, then /health/ready is 200 and /health is 200', async () => {
    expect((await call('/health/ready')).status).toBe(200);
    expect((await call('/health')).status).toBe(200);
  });

  it('when /openapi.json is read, then it is v1 and holds the paths of every service', async () => {
    const doc = (await (await call('/openapi.json')).json()) as { info: { version: string }; paths: Record<string, unknown> };
    expect(doc.info.version).toBe('v1');
    for (const p of ['/api/v1/me', '/api/v1/stamdata/{table}', '/api/v1/admin/audit', '/api/v1/applications', '/api/v1/uploads/categories']) {
      expect(Object.keys(doc.paths)).toContain(p);
    }
  });

  it('when /docs is opened, then Swagger UI is served', async () => {
    const res = await call('/docs/');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('swagger-ui');
  });

  it('when a problem type page is opened, then it explains the slug; an unknown slug is a bare 404', async () => {
    const page = await call('/problems/idempotency-key-reused');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Idempotency-Key');
    expect((await call('/problems/nope')).status).toBe(404);
  });
});

describe('GET /api/v1/me', () => {
  it.each([
    ['drafter', ['applications:own', 'brief:edit', 'brief:reveal-registernummer']],
    ['approver', ['applications:own', 'brief:approve']],
    ['admin', ['applications:own', 'audit:read', 'cases:admin', 'flags:write', 'orgtemplate:edit', 'stamdata:read', 'uploads:admin-delete']],
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
    expect(await res.json()).toEqual({ capabilities: ['CanBeoordelen', 'applications:own', 'brief:approve', 'stamdata:read'] });
  });

  it('when there is no identity, then 401 problem carrying the correlation id', async () => {
    const res = await call('/api/v1/me', { headers: { 'X-Correlation-Id': 'portal-req-42' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.headers.get('x-correlation-id')).toBe('portal-req-42');
    expect(await res.json()).toMatchObject({ type: '/problems/unauthenticated', status: 401, instance: '/api/v1/me', correlationId: 'portal-req-42' });
  });

  it('when the correlation id is malformed or the subject invalid, then a new id is made and 401 still answers', async () => {
    const res = await call('/api/v1/me', { headers: { 'X-Correlation-Id': 'bad id with spaces', 'X-Subject': 'x'.repeat(65) } });
    expect(res.status).toBe(401);
    const id = res.headers.get('x-correlation-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(((await res.json()) as { correlationId: string }).correlationId).toBe(id);
  });
});

describe('PUT /api/v1/admin/flags/herregistratie-aanvragen', () => {
  it('when a drafter sets it, then 403; when an admin does, then 204 and the audit log shows it with the correlation id', async () => {
    const denied = await call('/api/v1/admin/flags/herregistratie-aanvragen', { method: 'PUT', headers: { ...users.drafter, ...json }, body: '{"enabled":false}' });
    expect(denied.status).toBe(403);
    const correlationId = `flag-${randomUUID()}`;
    const res = await call('/api/v1/admin/flags/herregistratie-aanvragen', { method: 'PUT', headers: { ...users.admin, ...json, 'X-Correlation-Id': correlationId }, body: '{"enabled":true}' });
    expect(res.status).toBe(204);
    const row = await eventually(async () => (await auditRows()).find((r) => r.correlationId === correlationId));
    expect(row).toEqual({ at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/), action: 'flag:set', resource: 'flag/herregistratie-aanvragen', decision: 'allow', role: 'admin', correlationId });
  });
});

describe('denials the spec audits (Authentication 6)', () => {
  it('when a caller lacks the capability of the reveal or an organisation-admin route, then 403 and one deny row with the route and role', async () => {
    const reveal = `deny-reveal-${randomUUID()}`;
    const template = `deny-template-${randomUUID()}`;
    const denied = await call('/api/v1/brief/reveal-registernummer', { method: 'POST', headers: { ...users.approver, ...json, 'X-Step-Up': 'true', 'X-Correlation-Id': reveal }, body: '{}' });
    expect(denied.status).toBe(403);
    // A case handler without roles has no role to name.
    const noRoles = await call('/api/v1/admin/org-templates', { headers: { 'X-Medewerker': 'mw-003', 'X-Correlation-Id': template } });
    expect(noRoles.status).toBe(403);

    const rows = await eventually(async () => {
      const all = (await auditRows()).filter((r) => r.correlationId === reveal || r.correlationId === template);
      return all.length >= 2 ? all : undefined;
    });
    expect(rows.map(({ at: _at, ...row }) => row).sort((a, b) => a.action.localeCompare(b.action))).toEqual([
      { action: 'orgtemplate:edit', resource: '/api/v1/admin/org-templates', decision: 'deny', role: 'none', correlationId: template },
      { action: 'reveal-registernummer', resource: '/api/v1/brief/reveal-registernummer', decision: 'deny', role: 'approver', correlationId: reveal },
    ]);
  });
});

describe('Idempotency-Key (decisions §13)', () => {
  const put = (key: string, body: string, correlationId: string = randomUUID()) =>
    call('/api/v1/admin/flags/herregistratie-aanvragen', { method: 'PUT', headers: { ...users.admin, ...json, 'Idempotency-Key': key, 'X-Correlation-Id': correlationId }, body });

  it('when 50 identical requests run at once, then the operation takes effect once', async () => {
    const key = randomUUID();
    const ids = Array.from({ length: 50 }, () => `idem-${randomUUID()}`);
    const responses = await Promise.all(ids.map((id) => put(key, '{"enabled":true}', id)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.every((s) => s === 204 || s === 409)).toBe(true);
    expect(statuses.filter((s) => s === 204).length).toBeGreaterThanOrEqual(1);
    for (const r of responses.filter((x) => x.status === 409)) expect(((await r.json()) as { type: string }).type).toBe('/problems/idempotency-request-in-progress');
    // Afterwards a retry replays; exactly one flag:set row exists among the 50 correlation ids.
    const replay = await put(key, '{"enabled":true}');
    expect(replay.status).toBe(204);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    await eventually(async () => ((await auditRows()).some((r) => ids.includes(r.correlationId)) ? true : undefined));
    await new Promise((r) => setTimeout(r, 1500));
    expect((await auditRows()).filter((r) => ids.includes(r.correlationId))).toHaveLength(1);
  });

  it('when a key is reused with another body, then 422; when it is over 255 characters, then 400', async () => {
    const key = randomUUID();
    expect((await put(key, '{"enabled":true}')).status).toBe(204);
    const reused = await put(key, '{"enabled":false}');
    expect(reused.status).toBe(422);
    expect(((await reused.json()) as { type: string }).type).toBe('/problems/idempotency-key-reused');
    const long = await put('k'.repeat(256), '{"enabled":true}');
    expect(long.status).toBe(400);
    expect(((await long.json()) as { errors: unknown[] }).errors.length).toBeGreaterThan(0);
  });

  it('when a problem answer is replayed, then status and body are the first ones, with the first correlation id', async () => {
    const key = randomUUID();
    const first = await call('/api/v1/admin/flags/onbekend', { method: 'PUT', headers: { ...users.admin, ...json, 'Idempotency-Key': key }, body: '{"enabled":"x"}' });
    expect(first.status).toBe(404);
    const invalid = await put(key, '{"enabled":"x"}', 'first-corr');
    expect(invalid.status).toBe(400);
    const firstBody = await invalid.text();
    const again = await put(key, '{"enabled":"x"}', 'second-corr');
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('x-correlation-id')).toBe('second-corr');
    expect(await again.text()).toBe(firstBody);
    expect(JSON.parse(firstBody).correlationId).toBe('first-corr');
  });

  it('when the same key is used by another caller, then it is a separate request', async () => {
    const key = randomUUID();
    expect((await put(key, '{"enabled":true}')).status).toBe(204);
    const other = await call('/api/v1/admin/flags/herregistratie-aanvragen', { method: 'PUT', headers: { 'X-Subject': '900000099', 'X-Role': 'admin', ...json, 'Idempotency-Key': key }, body: '{"enabled":false}' });
    expect(other.status).toBe(204);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    await put(key, '{"enabled":true}');
    await call('/api/v1/admin/flags/herregistratie-aanvragen', { method: 'PUT', headers: { ...users.admin, ...json }, body: '{"enabled":true}' });
  });
});

describe('Idempotency-Key on uploads (streamed through the gateway)', () => {
  const MIB = 1024 * 1024;
  const pdf = (bytes: number, fill: number) => Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(bytes - 9, fill)]);
  // A retry sends the same bytes (decisions §13 compares raw bodies), so the multipart boundary is fixed here.
  const boundary = 'register-test-boundary';
  const upload = (file: Buffer, key?: string) => {
    const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const body = Buffer.concat([
      Buffer.from(field('wizardId', 'intake') + field('categoryId', 'overig')),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bewijs.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const headers = { 'X-Subject': '900000011', 'Content-Type': `multipart/form-data; boundary=${boundary}`, ...(key ? { 'Idempotency-Key': key } : {}) };
    return call('/api/v1/uploads', { method: 'POST', headers, body });
  };

  it('when a keyed upload is repeated, then the same document is replayed; another file with that key is 422', async () => {
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
  });

  it('when an upload is larger than any category, then every try is 413, never 503, and a keyed retry runs again instead of being 422', async () => {
    const tooLarge = pdf(30 * MIB, 3);
    const key = randomUUID();
    for (let i = 0; i < 4; i++) {
      const plain = await upload(tooLarge);
      expect(plain.status).toBe(413);
      expect(((await plain.json()) as { type: string }).type).toBe('/problems/payload-too-large');
      const keyed = await upload(tooLarge, key);
      expect(keyed.status).toBe(413);
      expect(keyed.headers.get('idempotent-replayed')).toBeNull();
      await keyed.body?.cancel();
    }
    expect((await call('/health/ready')).status).toBe(200);
  });
});

describe('admin delete of a case (applications → documents over events)', () => {
  it('when an admin deletes a submitted case, then its documents are gone too', async () => {
    const me = { 'X-Subject': '900000012' };
    const form = new FormData();
    form.set('wizardId', 'intake');
    form.set('categoryId', 'diploma');
    form.set('file', new Blob([Buffer.from('%PDF-1.4\n' + 'x'.repeat(2000))], { type: 'application/pdf' }), 'diploma.pdf');
    const uploaded = await call('/api/v1/uploads', { method: 'POST', headers: me, body: form });
    expect(uploaded.status).toBe(201);
    const { documentId } = (await uploaded.json()) as { documentId: string };
    const created = await call('/api/v1/applications', { method: 'POST', headers: { ...me, ...json }, body: JSON.stringify({ type: 'intake' }) });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const submit = await call(`/api/v1/applications/${id}/submit`, {
      method: 'POST',
      headers: { ...me, ...json },
      body: JSON.stringify({ diplomaHerkomst: 'handmatig', uren: 3000, documents: [{ categoryId: 'diploma', channel: 'digitaal', documentId }] }),
    });
    expect(submit.status).toBe(200);
    const content = () => call(`/api/v1/uploads/${documentId}/content`, { headers: me });
    expect((await content()).status).toBe(200);

    expect((await call(`/api/v1/admin/cases/${id}`, { method: 'DELETE', headers: users.admin })).status).toBe(204);
    await eventually(async () => ((await content()).status === 404 ? true : undefined));
  });
});

describe('a service that stops', () => {
  it('when the reference service is down, then its routes answer 503 problem and /health/ready 503; when it is back, the gateway recovers', async () => {
    await sys.system.stop('reference');
    const res = await call('/api/v1/stamdata', { headers: { ...users.admin, 'X-Correlation-Id': 'down-1' } });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ type: '/problems/unavailable', status: 503, correlationId: 'down-1', instance: '/api/v1/stamdata' });
    expect((await call('/health/ready')).status).toBe(503);
    await sys.system.start('reference');
    expect((await call('/api/v1/stamdata', { headers: users.admin })).status).toBe(200);
    expect((await call('/health/ready')).status).toBe(200);
  }, 60_000);
});
