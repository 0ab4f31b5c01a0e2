import type { ZgwSimulator } from '../src';
import { expectContract } from './helpers/contract';
import { createZaak, startSim, statusBody, zaakBody, zgw } from './helpers/zgw-client';

// Open Zaak's GeoMixin on the zaak endpoints: Content-Crs on writes (412 without, 406 for another CRS),
// Accept-Crs optional but only EPSG:4326, and Content-Crs on every answer.
describe('Content-Crs and Accept-Crs on /zaken', () => {
  let sim: ZgwSimulator;
  beforeAll(async () => {
    sim = await startSim();
  });
  afterAll(async () => {
    await sim.close();
  });

  it('when POST /zaken has no Content-Crs, then 412 and no zaak', async () => {
    const body = zaakBody(sim);

    const response = await zgw('POST', `${sim.zakenUrl}/zaken`, body, { headers: { 'Content-Crs': null } });

    await expectContract('zaken', 'zaak_create', response, 412);
    expect(response.body).toMatchObject({ code: 'precondition_failed', detail: "'Content-Crs' header ontbreekt" });
    expect(response.headers.get('content-crs')).toBe('EPSG:4326');
    expect(sim.state.zakenWithIdentificatie(String(body['identificatie']))).toHaveLength(0);
  });

  it('when POST /zaken has Content-Crs EPSG:28992, then 406', async () => {
    const response = await zgw('POST', `${sim.zakenUrl}/zaken`, zaakBody(sim), {
      headers: { 'Content-Crs': 'EPSG:28992' },
    });

    await expectContract('zaken', 'zaak_create', response, 406);
    expect(response.body).toMatchObject({ code: 'not_acceptable', detail: "CRS 'EPSG:28992' is niet ondersteund" });
  });

  it('when GET /zaken/{uuid} asks Accept-Crs EPSG:28992, then 406', async () => {
    const zaak = await createZaak(sim);

    const response = await zgw('GET', zaak.url, undefined, { headers: { 'Accept-Crs': 'EPSG:28992' } });

    await expectContract('zaken', 'zaak_read', response, 406);
  });

  it(
    'when a zaak is read without Accept-Crs, ' +
      'then it is answered (optional in Open Zaak 1.x) with Content-Crs EPSG:4326',
    async () => {
      const zaak = await createZaak(sim);

      const response = await zgw('GET', zaak.url, undefined, { headers: { 'Accept-Crs': null } });

      await expectContract('zaken', 'zaak_read', response, 200);
      expect(response.headers.get('content-crs')).toBe('EPSG:4326');
    },
  );

  it('when the token is refused and Content-Crs is missing too, then the JWT is checked first: 403', async () => {
    const response = await zgw('POST', `${sim.zakenUrl}/zaken`, zaakBody(sim), {
      authorization: null,
      headers: { 'Content-Crs': null },
    });

    expect(response.status).toBe(403);
  });

  it('when a status is posted without CRS headers, then it is accepted: statussen are no geo resource', async () => {
    const zaak = await createZaak(sim);

    const response = await zgw('POST', `${sim.zakenUrl}/statussen`, statusBody(sim, zaak.url), {
      headers: { 'Content-Crs': null, 'Accept-Crs': null },
    });

    await expectContract('zaken', 'status_create', response, 201);
    expect(response.headers.get('content-crs')).toBeNull();
  });

  it('when a zaak is deleted without CRS headers, then 204', async () => {
    const zaak = await createZaak(sim);

    const response = await zgw('DELETE', zaak.url, undefined, { headers: { 'Accept-Crs': null } });

    expect(response.status).toBe(204);
  });
});
