import { asUser, eventually, practitioner } from '@register/testkit';
import { startReference, type Harness } from './support/harness';

let h: Harness;
beforeAll(async () => {
  h = await startReference();
});
afterAll(async () => h.close());

const admin = asUser(practitioner('900000001', 'admin'), 'corr-flags-1');
const put = (key: string, body: unknown, headers: Record<string, string> = admin) =>
  fetch(`${h.url}/api/v1/admin/flags/${key}`, { method: 'PUT', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('PUT /api/v1/admin/flags/:key', () => {
  it('when a drafter sets a flag, then 403 and nothing changes', async () => {
    const res = await put('herregistratie-aanvragen', { enabled: false }, asUser(practitioner('900000001', 'drafter')));
    expect(res.status).toBe(403);
    const flags = (await (await fetch(`${h.url}/api/v1/flags`, { headers: admin })).json()) as Array<{ key: string; enabled: boolean }>;
    expect(flags.find((f) => f.key === 'herregistratie-aanvragen')?.enabled).toBe(true);
  });

  it('when an admin disables it, then 204, the flag reads back and an audit event and a flag-changed event are published', async () => {
    const res = await put('herregistratie-aanvragen', { enabled: false });
    expect(res.status).toBe(204);
    const flags = (await (await fetch(`${h.url}/api/v1/flags`, { headers: admin })).json()) as Array<{ key: string; enabled: boolean; description: string }>;
    expect(flags.find((f) => f.key === 'herregistratie-aanvragen')).toEqual({ key: 'herregistratie-aanvragen', description: expect.any(String), enabled: false });
    const audit = await eventually(async () => {
      const msg = await h.events.jsm.streams.getMessage('REGISTER', { last_by_subj: 'register.audit.reference' }).catch(() => null);
      const body = msg?.json<{ correlationId: string; data: Record<string, string> }>();
      return body?.correlationId === 'corr-flags-1' ? body : undefined;
    });
    expect(audit.data).toEqual({ action: 'flag:set', resource: 'flag/herregistratie-aanvragen', decision: 'allow', role: 'admin' });
  });

  it('when the key is unknown, then a bare 404 even with an invalid body', async () => {
    const res = await put('bestaat-niet', { enabled: 'nee' });
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('');
  });

  it('when the body is invalid, then 400 with errors', async () => {
    const res = await put('herregistratie-aanvragen', { enabled: 'ja' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: Array<{ field: string }> };
    expect(body.errors[0]?.field).toBe('enabled');
  });
});

describe('requests without the gateway signature', () => {
  it('when the internal identity is missing or forged, then 401', async () => {
    expect((await fetch(`${h.url}/api/v1/flags`)).status).toBe(401);
    expect((await fetch(`${h.url}/api/v1/flags`, { headers: { 'x-internal-identity': 'abc.def' } })).status).toBe(401);
    expect((await fetch(`${h.url}/api/v1/flags`, { headers: { 'x-subject': '900000001' } })).status).toBe(401);
  });

  it('when a user identity calls an internal route, then 403', async () => {
    expect((await fetch(`${h.url}/internal/flags`, { headers: admin })).status).toBe(403);
  });
});
