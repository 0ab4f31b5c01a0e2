import type { ZgwSimulator } from '../src';
import { createZaak, rolBody, startSim, statusBody, zgw } from './helpers/zgw-client';

describe('GET /_sim/state and the state object', () => {
  let sim: ZgwSimulator;
  beforeAll(async () => {
    sim = await startSim();
  });
  afterAll(async () => {
    await sim.close();
  });

  it(
    'when zaken were made, then the state shows each with its ' +
      'statussen and rollen, the request log and the counters',
    async () => {
      const zaak = await createZaak(sim);
      await zgw('POST', `${sim.zakenUrl}/statussen`, statusBody(sim, zaak.url));
      await zgw('POST', `${sim.zakenUrl}/rollen`, rolBody(sim, zaak.url));
      await zgw('POST', `${sim.zakenUrl}/zaken`, { bronorganisatie: sim.rsin });

      const response = await fetch(`${sim.url}/_sim/state`);
      const state = (await response.json()) as any;

      expect(response.status).toBe(200);
      expect(state.zaken).toEqual([
        expect.objectContaining({
          zaak: expect.objectContaining({ url: zaak.url, identificatie: zaak.identificatie }),
          statussen: [expect.objectContaining({ statustype: sim.catalogi.statustypeUrls.ingediend })],
          rollen: [expect.objectContaining({ omschrijvingGeneriek: 'initiator' })],
          zaakinformatieobjecten: [],
        }),
      ]);
      expect(state.requests.map((entry: any) => [entry.method, entry.path, entry.status])).toEqual([
        ['POST', '/zaken/api/v1/zaken', 201],
        ['POST', '/zaken/api/v1/statussen', 201],
        ['POST', '/zaken/api/v1/rollen', 201],
        ['POST', '/zaken/api/v1/zaken', 400],
      ]);
      expect(state.requests[0].claims).toMatchObject({
        client_id: 'register-applications',
        user_representation: 'self-service',
      });
      expect(state.counters).toMatchObject({
        requests: 4,
        byStatus: { '201': 3, '400': 1 },
        created: { zaak: 1, status: 1, rol: 1 },
        current: { zaken: 1, statussen: 1, rollen: 1 },
      });
    },
  );

  it('when /_sim/reset is posted, then zaken and logs are forgotten and the catalogue stays', async () => {
    await createZaak(sim);

    const reset = await fetch(`${sim.url}/_sim/reset`, { method: 'POST' });
    const zaaktype = await zgw('GET', sim.zaaktypeUrl);

    expect(reset.status).toBe(204);
    expect(sim.state.zaken()).toEqual([]);
    expect(zaaktype.status).toBe(200);
    expect(sim.state.requests()).toHaveLength(1);
  });
});
