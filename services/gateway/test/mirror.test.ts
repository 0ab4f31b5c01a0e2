import { randomUUID } from 'node:crypto';
import { eventually } from '@register/testkit';
import type { ZgwSimulator } from '@register/zgw-sim';
import { startMirroredSystem, type MirroredSystem } from './support/mirrored-system';
import { users } from './support/system';
import { call as callGateway, submitIntake } from './support/through-gateway';

// Mirroring on, end to end through the gateway: the whole system as processes (tools/launcher's System) with
// the applications service pointed at the ZGW simulator, which runs in this test's process.
const NOTIFICATIES_AUTH = 'Token gateway-mirror-notificaties';

let system: MirroredSystem;
let sim: ZgwSimulator;
let gateway: string;

beforeAll(async () => {
  system = await startMirroredSystem('mir', NOTIFICATIES_AUTH);
  ({ sim, gateway } = system);
}, 180_000);

afterAll(async () => system?.close(), 60_000);

afterEach(() => sim.faults.clear());

const call = (method: string, url: string, headers: Record<string, string>, body?: unknown) =>
  callGateway(gateway, method, url, headers, body);
const submitThroughGateway = (subject: string) => submitIntake(gateway, subject);

async function auditRows(
  query: string,
): Promise<Array<{ action: string; resource: string; decision: string; role: string; correlationId: string }>> {
  const res = await call('GET', `/api/v1/admin/audit?${query}`, users.admin);
  expect(res.status).toBe(200);
  return res.body;
}

describe('mirroring on, through the gateway (issue 10)', () => {
  it(
    'when a practitioner submits and a beoordelaar decides, then the zaak, its status, initiator, ' +
      'document and the besluit status exist once in the zaaksysteem, ' +
      'and the case lists and resolves by the zaak uuid',
    async () => {
      const { referentie } = await submitThroughGateway('900000002');
      const view = await eventually(async () => {
        const [v] = sim.state.zakenWithIdentificatie(referentie);
        return v && v.statussen.length === 1 && v.rollen.length === 1 && v.zaakinformatieobjecten.length === 1
          ? v
          : undefined;
      }, 30_000);
      const zaakUuid = String(view.zaak['uuid']);
      expect(view.rollen[0]!['betrokkeneIdentificatie']).toMatchObject({ anpIdentificatie: '900000002' });

      const queue = await call('GET', '/api/v1/werkvoorraad', users.beoordelaar);
      expect(queue.body.find((c: { status: { referentie: string } }) => c.status.referentie === referentie)?.id).toBe(
        zaakUuid,
      );
      const besluit = await call('POST', `/api/v1/beoordeling/${zaakUuid}/besluit`, users.beoordelaar, {
        besluit: 'toekennen',
      });
      expect(besluit.status).toBe(200);
      expect(besluit.body.status).toMatchObject({ tag: 'Toegekend', referentie, manual: false });

      const decided = await eventually(async () => {
        const [v] = sim.state.zakenWithIdentificatie(referentie);
        return v && v.statussen.length === 2 ? v : undefined;
      }, 30_000);
      expect(decided.statussen.map((s) => [s['statustype'], s['statustoelichting']])).toEqual(
        expect.arrayContaining([[sim.catalogi.statustypeUrls.besluitGenomen, 'toekennen']]),
      );
      const statusCalls = sim.state.requests().filter((r) => r.operationId === 'status_create');
      expect(statusCalls.map((r) => r.claims?.['user_id'])).toEqual(['self-service', 'mw-001']);
      expect(sim.state.zakenWithIdentificatie(referentie)).toHaveLength(1);

      const cases = await call('GET', '/api/v1/admin/cases', users.admin);
      expect({ status: cases.status, problem: cases.status === 200 ? null : cases.body }).toEqual({
        status: 200,
        problem: null,
      });
      expect(cases.body.find((c: { id: string }) => c.id === zaakUuid)).toMatchObject({
        type: 'intake',
        owner: '******002',
        status: { tag: 'Toegekend', referentie },
      });
    },
  );

  it(
    'when the zaaksysteem answers 500 to the zaak, then the submit still answers 200, ' +
      'the application shows the divergence and the audit log has one row with the submit correlation id',
    async () => {
      sim.faults.add({ path: '/zaken/api/v1/zaken', method: 'POST', mode: 'status', status: 500, count: 1 });
      const { me, id, referentie, correlationId } = await submitThroughGateway('900000001');

      const status = await eventually(async () => {
        const detail = await call('GET', `/api/v1/applications/${id}`, me);
        return detail.body.status.manual ? detail.body.status : undefined;
      }, 30_000);
      expect(status).toMatchObject({ tag: 'Ingediend', manual: true, reden: 'zaaksysteem-divergentie' });
      const rows = await eventually(async () => {
        const found = await auditRows(`action=zaaksysteem-divergentie&correlationId=${correlationId}`);
        return found.length > 0 ? found : undefined;
      }, 30_000);
      expect(rows.map((r) => [r.resource, r.decision, r.role])).toEqual([[`case/${referentie}`, 'flagged', 'system']]);
      expect(
        sim.state.requests().filter((r) => r.method === 'POST' && r.path === '/zaken/api/v1/zaken' && r.status === 500),
      ).toHaveLength(1);
    },
  );

  it(
    'when the zaaksysteem notifies the gateway with the secret, ' +
      'then 204 and one notificatie-ontvangen row; without it 401',
    async () => {
      const body = {
        kanaal: 'zaken',
        hoofdObject: `${sim.zakenUrl}/zaken/${randomUUID()}`,
        resource: 'zaak',
        resourceUrl: `${sim.zakenUrl}/zaken/${randomUUID()}`,
        actie: 'create',
        aanmaakdatum: new Date().toISOString(),
        kenmerken: {},
      };
      const refused = await call('POST', '/api/v1/notificaties', {}, body);
      expect(refused.status).toBe(401);
      const accepted = await call('POST', '/api/v1/notificaties', { Authorization: NOTIFICATIES_AUTH }, body);
      expect(accepted.status).toBe(204);
      const again = await call('POST', '/api/v1/notificaties', { Authorization: NOTIFICATIES_AUTH }, body);
      expect(again.status).toBe(204);
      const rows = await eventually(async () => {
        const found = await auditRows(
          `action=notificatie-ontvangen&correlationId=${accepted.headers.get('x-correlation-id')}`,
        );
        return found.length > 0 ? found : undefined;
      }, 30_000);
      expect(rows.map((r) => [r.resource, r.decision, r.role])).toEqual([
        ['notificatie/zaken/zaak/create', 'accepted', 'system'],
      ]);
      expect(
        await auditRows(`action=notificatie-ontvangen&correlationId=${again.headers.get('x-correlation-id')}`),
      ).toEqual([]);
    },
  );
});
