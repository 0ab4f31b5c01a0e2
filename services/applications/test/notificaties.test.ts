import http from 'node:http';
import { auditEvent } from '@register/contracts';
import { asUser } from '@register/testkit';
import { startApplicationsSystem, type ApplicationsSystem } from './support/system';
import { NOTIFICATIES_AUTH, notify, type AuditRow } from './support/mirror-system';
import { startDocuments, startReference, type DocumentsNeighbour } from './support/neighbours';
import type { NeighboursSystem } from './support/neighbours-system';

// Mirroring off: the webhook is the same with and without it (ADR 0011).
let reference: Awaited<ReturnType<typeof startReference>>;
let documents: DocumentsNeighbour;
let apps: ApplicationsSystem;
let unconfigured: ApplicationsSystem;
const rows: AuditRow[] = [];
const system = (a: ApplicationsSystem): NeighboursSystem => ({
  apps: a,
  reference,
  documents,
  close: async () => undefined,
});

beforeAll(async () => {
  [reference, documents] = await Promise.all([startReference(), startDocuments()]);
  const urls = { referenceUrl: reference.url, documentsUrl: documents.url };
  [apps, unconfigured] = await Promise.all([
    startApplicationsSystem({ ...urls, env: { NOTIFICATIES_AUTH } }),
    startApplicationsSystem(urls),
  ]);
  apps.events.subscribe(auditEvent('applications').subject, (m) => void rows.push(JSON.parse(m.payload) as AuditRow));
}, 120_000);
afterAll(async () => {
  await Promise.all([apps.close(), unconfigured.close()]);
  await Promise.all([reference.close(), documents.close()]);
});

let n = 0;
/** A distinct notification (Open Notificaties' shape); `kanaal: "test"` is the subscription check. */
function notificatie(overrides: Record<string, unknown> = {}) {
  n += 1;
  const zaak = `https://zaken.example.nl/zaken/api/v1/zaken/3f2b8c1e-8d4a-4c3e-9a51-${String(n).padStart(12, '0')}`;
  return {
    kanaal: 'zaken',
    hoofdObject: zaak,
    resource: 'status',
    resourceUrl: `${zaak}/status`,
    actie: 'create',
    aanmaakdatum: new Date(Date.UTC(2026, 2, 1, 10, 0, n)).toISOString(),
    kenmerken: { bronorganisatie: '501234561', zaaktype: 'https://catalogi.example.nl/zaaktypen/1' },
    ...overrides,
  };
}

/**
 * The audit rows of one request, once the row of `settled` (a later accepted notification) arrived: so none still on
 * its way.
 */
async function rowsOf(correlationId: string, settled: string): Promise<AuditRow[]> {
  for (let i = 0; i < 150 && !rows.some((r) => r.correlationId === settled); i++)
    await new Promise((r) => setTimeout(r, 100));
  if (!rows.some((r) => r.correlationId === settled)) throw new Error('the settling notification was not audited');
  return rows.filter((r) => r.correlationId === correlationId);
}

/** An accepted notification sent after the one under test: the outbox publishes in order, so its row comes last. */
async function settle(): Promise<string> {
  const res = await notify(system(apps), notificatie());
  expect(res.status).toBe(204);
  return res.correlationId;
}

describe('POST /api/v1/notificaties', () => {
  it(
    'when a notification carries the configured Authorization, then 204 and exactly ' + 'one notificatie-ontvangen row',
    async () => {
      const res = await notify(system(apps), notificatie());
      expect(res.status).toBe(204);
      expect(res.body).toBeNull();
      expect((await rowsOf(res.correlationId, await settle())).map((r) => r.data)).toEqual([
        {
          action: 'notificatie-ontvangen',
          resource: 'notificatie/zaken/status/create',
          decision: 'accepted',
          role: 'system',
        },
      ]);
    },
  );

  it('when Open Notificaties checks the subscription (kanaal "test"), then 204 and one row as well', async () => {
    const res = await notify(system(apps), notificatie({ kanaal: 'test', resource: 'test', actie: 'test' }));
    expect(res.status).toBe(204);
    expect((await rowsOf(res.correlationId, await settle())).map((r) => r.data.resource)).toEqual([
      'notificatie/test/test/test',
    ]);
  });

  it(
    'when the same notification is delivered twice (also with its kenmerken in ' +
      'another order), then both answer 204 and only the first writes a row',
    async () => {
      const body = notificatie();
      const first = await notify(system(apps), body);
      const again = await notify(system(apps), {
        ...body,
        kenmerken: { zaaktype: body.kenmerken.zaaktype, bronorganisatie: body.kenmerken.bronorganisatie },
      });
      const racing = await Promise.all([notify(system(apps), body), notify(system(apps), body)]);
      expect([first.status, again.status, ...racing.map((r) => r.status)]).toEqual([204, 204, 204, 204]);
      const settled = await settle();
      expect(await rowsOf(first.correlationId, settled)).toHaveLength(1);
      for (const r of [again, ...racing]) expect(await rowsOf(r.correlationId, settled)).toHaveLength(0);
    },
  );

  it.each([
    ['no Authorization', null],
    ['a wrong Authorization', 'Token wrong'],
    ['the secret with a different case', NOTIFICATIES_AUTH.toUpperCase()],
    ['the secret as a prefix', NOTIFICATIES_AUTH.slice(0, -1)],
  ])('when it carries %s, then 401 unauthenticated and no row', async (_name, authorization) => {
    const res = await notify(system(apps), notificatie(), authorization);
    expect(res.status).toBe(401);
    expect(res.body.type).toBe('/problems/unauthenticated');
    expect(await rowsOf(res.correlationId, await settle())).toHaveLength(0);
  });

  it('when the body is malformed and the Authorization wrong, then 401 (checked before 400)', async () => {
    const res = await notify(system(apps), { kanaal: 'zaken' }, 'Token wrong');
    expect(res.status).toBe(401);
  });

  it(
    'when the body is not JSON at all and the Authorization wrong, then 401 (checked ' +
      'before the body is read as JSON)',
    async () => {
      const res = await notify(system(apps), '{"kanaal": "zaken",', 'Token wrong');
      expect(res.status).toBe(401);
      expect(res.body.type).toBe('/problems/unauthenticated');
    },
  );

  it('when the body is not JSON at all and the Authorization right, then 400 invalid_json and no row', async () => {
    const res = await notify(system(apps), '{"kanaal": "zaken",');
    expect(res.status).toBe(400);
    expect(res.body.type).toBe('/problems/validation');
    expect(res.body.errors.map((e: { code: string }) => e.code)).toEqual(['invalid_json']);
    expect(await rowsOf(res.correlationId, await settle())).toHaveLength(0);
  });

  const without = (field: string): Record<string, unknown> =>
    Object.fromEntries(Object.entries(notificatie()).filter(([k]) => k !== field));
  const malformed: Array<[string, unknown, string]> = [
    ...['kanaal', 'hoofdObject', 'resource', 'resourceUrl', 'actie', 'aanmaakdatum'].map(
      (field): [string, unknown, string] => [`without ${field}`, without(field), field],
    ),
    ['an array', [notificatie()], ''],
    ['a string', '"zaken"', ''],
    ['kanaal a number', notificatie({ kanaal: 42 }), 'kanaal'],
    ['an empty actie', notificatie({ actie: '' }), 'actie'],
  ];
  it.each(malformed)('when the body is %s, then 400 and no row', async (_name, body, field) => {
    const res = await notify(system(apps), body);
    expect(res.status).toBe(400);
    expect(res.body.type).toBe('/problems/validation');
    if (field) expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(await rowsOf(res.correlationId, await settle())).toHaveLength(0);
  });

  it('when the body is over 64 KiB, then 413 and no row; without the secret still 401', async () => {
    const big = notificatie({
      kenmerken: Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`k${i}`, 'x'.repeat(900)])),
    });
    const res = await notify(system(apps), big);
    expect(res.status).toBe(413);
    expect(res.body.type).toBe('/problems/payload-too-large');
    expect((await notify(system(apps), big, 'Token wrong')).status).toBe(401);
    expect(await rowsOf(res.correlationId, await settle())).toHaveLength(0);
    expect((await notify(system(apps), notificatie({ kenmerken: { k: 'x'.repeat(1000) } }))).status).toBe(204);
  });

  it('when a body over 1 MB comes without the secret, then 401 (not 413): the secret is checked first', async () => {
    const huge = notificatie({ kenmerken: { k: 'x'.repeat(1_200_000) } });
    for (const authorization of [null, 'Token wrong']) {
      const res = await notify(system(apps), huge, authorization);
      expect([authorization, res.status, res.body?.type]).toEqual([authorization, 401, '/problems/unauthenticated']);
    }
  });

  it(
    'when the secret is missing, then the 401 comes while the body is still unsent: ' + 'nothing of it is read first',
    async () => {
      const answer = await new Promise<{ status: number; sent: boolean }>((resolve, reject) => {
        const req = http.request(`${apps.url}/api/v1/notificaties`, {
          method: 'POST',
          headers: { ...asUser(null), 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) },
        });
        req.on('response', (res) => {
          resolve({ status: res.statusCode ?? 0, sent: req.writableEnded });
          res.resume();
          req.destroy();
        });
        req.on('error', reject);
        // A quarter of the declared body, and no more: the answer cannot wait for the rest.
        req.write('{"kanaal":"zaken","kenmerken":{"k":"' + 'x'.repeat(512 * 1024));
      });
      expect(answer).toEqual({ status: 401, sent: false });
    },
  );

  it('when no NOTIFICATIES_AUTH is configured, then every call is refused with 401 (fail closed)', async () => {
    for (const authorization of [null, '', NOTIFICATIES_AUTH, 'Bearer x']) {
      const res = await notify(system(unconfigured), notificatie(), authorization);
      expect(res.status).toBe(401);
    }
  });
});
