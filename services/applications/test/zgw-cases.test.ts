import { eventually, uniqueSubject } from '@register/testkit';
import { pageThrough } from './support/list-rows';
import {
  logFrom,
  mirrored,
  notify,
  startMirrorSystem,
  submitIntake,
  ZGW_CLIENT_ID,
  ZGW_SECRET,
  type MirrorSystem,
} from './support/mirror-system';
import { as } from './support/neighbours-system';

// The simulator pages by 2 here, so every list the mirror and the case source read is followed over pages.
let system: MirrorSystem;
beforeAll(async () => {
  system = await startMirrorSystem({ pageSize: 2 });
}, 120_000);
afterAll(() => system.close());
afterEach(() => system.sim.faults.clear());

const masked = (subject: string) => `******${subject.slice(-3)}`;

/** A zaak of our zaaktype made in the zaaksysteem itself (no application of ours), with an initiator. */
async function foreignZaak(): Promise<{ uuid: string; identificatie: string }> {
  const { SignJWT } = await import('jose');
  const token = await new SignJWT({ client_id: ZGW_CLIENT_ID, user_id: 'test', user_representation: 'test' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ZGW_CLIENT_ID)
    .setIssuedAt()
    .sign(new TextEncoder().encode(ZGW_SECRET));
  const headers = {
    Authorization: `Bearer ${token}`,
    'Content-Type': 'application/json',
    'Content-Crs': 'EPSG:4326',
    'Accept-Crs': 'EPSG:4326',
  };
  const identificatie = `ELDERS-${uniqueSubject()}`;
  const zaak = await fetch(`${system.sim.zakenUrl}/zaken`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      identificatie,
      bronorganisatie: system.sim.rsin,
      verantwoordelijkeOrganisatie: system.sim.rsin,
      zaaktype: system.sim.zaaktypeUrl,
      startdatum: '2026-01-05',
    }),
  }).then((r) => r.json() as Promise<{ url: string; uuid: string }>);
  const rol = await fetch(`${system.sim.zakenUrl}/rollen`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      zaak: zaak.url,
      roltype: system.sim.catalogi.roltypeInitiatorUrl,
      betrokkeneType: 'natuurlijk_persoon',
      roltoelichting: 'x',
      betrokkeneIdentificatie: { inpBsn: '999990019' },
    }),
  });
  if (rol.status !== 201) throw new Error(`rol answered ${rol.status}`);
  return { uuid: zaak.uuid, identificatie };
}

describe('POST /api/v1/beoordeling/:id/besluit with mirroring on', () => {
  it(
    'when a beoordelaar decides a case by its zaak uuid from the work queue, then ' +
      'the next status carries the besluit and its toelichting, written in the name of ' +
      'the case handler',
    async () => {
      const { id, referentie } = await submitIntake(system, uniqueSubject(), 0);
      const zaak = (await mirrored(system, referentie)).zaak;
      const queue = await pageThrough<{ id: string; status: { referentie: string } }>(
        as.beoordelaar(system),
        '/api/v1/werkvoorraad',
      );
      expect(queue.find((c) => c.status.referentie === referentie)?.id).toBe(zaak['uuid']);
      expect(
        (await as.beoordelaar(system).get(`/api/v1/beoordeling/${String(zaak['uuid'])}`)).body.aanvraag.status
          .referentie,
      ).toBe(referentie);
      const log = logFrom(system);

      const res = await as.beoordelaar(system).post(`/api/v1/beoordeling/${String(zaak['uuid'])}/besluit`, {
        besluit: 'afwijzen',
        toelichting: 'Onvoldoende werkervaring aangetoond.',
      });

      expect(res.status).toBe(200);
      expect(res.body.status).toMatchObject({ tag: 'Afgewezen', referentie, manual: false });
      const view = await mirrored(system, referentie, { statussen: 2 });
      const besluit = view.statussen.find((s) => s['statustype'] === system.sim.catalogi.statustypeUrls.besluitGenomen);
      expect(besluit).toMatchObject({ statustoelichting: 'afwijzen: Onvoldoende werkervaring aangetoond.' });
      expect(Date.parse(String(besluit!['datumStatusGezet']))).toBeGreaterThan(
        Date.parse(String(view.statussen.find((s) => s !== besluit)!['datumStatusGezet'])),
      );
      expect(
        log()
          .filter((r) => r.operationId === 'status_create')
          .map((r) => [r.status, r.claims?.['user_id'], r.claims?.['user_representation']]),
      ).toEqual([[201, 'mw-1', 'mw-1']]);
      // The application id a portal may still hold resolves to the same case.
      expect((await as.beoordelaar(system).get(`/api/v1/beoordeling/${id}`)).body.decisions).toEqual({
        canBesluiten: false,
      });
    },
  );

  it('when the id is unknown, or a zaak of the zaaktype without an application of ours, then 404', async () => {
    const elsewhere = await foreignZaak();
    expect((await as.beoordelaar(system).get('/api/v1/beoordeling/00000000-0000-4000-8000-000000000000')).status).toBe(
      404,
    );
    expect((await as.beoordelaar(system).get(`/api/v1/beoordeling/${elsewhere.uuid}`)).status).toBe(404);
    expect(
      (await as.beoordelaar(system).post(`/api/v1/beoordeling/${elsewhere.uuid}/besluit`, { besluit: 'toekennen' }))
        .status,
    ).toBe(404);
  });
});

describe('GET /api/v1/admin/cases with mirroring on (ADR 0008/0011)', () => {
  it(
    'when an admin lists the cases, then every zaak of the zaaktype comes once, as a ' +
      'summary: the zaak uuid, the identificatie, the status from its type, the ' +
      'initiator masked',
    async () => {
      const a = uniqueSubject();
      const b = uniqueSubject();
      const first = await submitIntake(system, a, 1);
      const second = await submitIntake(system, b, 0);
      const zaakA = (await mirrored(system, first.referentie, { documents: 1 })).zaak;
      const zaakB = (await mirrored(system, second.referentie)).zaak;
      expect(
        (
          await as
            .beoordelaar(system)
            .post(`/api/v1/beoordeling/${String(zaakB['uuid'])}/besluit`, { besluit: 'toekennen' })
        ).status,
      ).toBe(200);
      await mirrored(system, second.referentie, { statussen: 2 });
      const elsewhere = await foreignZaak();

      const list = await pageThrough<Record<string, any>>(as.admin(system), '/api/v1/admin/cases?limit=3');

      const ours = system.sim.state
        .zaken()
        .filter((v) => v.zaak['zaaktype'] === system.sim.zaaktypeUrl)
        .map((v) => v.zaak['uuid']);
      expect(list.map((c) => c['id']).sort()).toEqual([...ours].sort());
      const detailA = (await as.practitioner(system, a).get(`/api/v1/applications/${first.id}`)).body;
      expect(list.find((c) => c['id'] === zaakA['uuid'])).toEqual({
        id: zaakA['uuid'],
        type: 'intake',
        status: {
          tag: 'Ingediend',
          stepIndex: null,
          stepCount: null,
          referentie: first.referentie,
          manual: false,
          reden: null,
        },
        documentIds: first.docs,
        createdAt: detailA.createdAt,
        updatedAt: detailA.updatedAt,
        submittedAt: detailA.submittedAt,
        owner: masked(a),
      });
      expect(list.find((c) => c['id'] === zaakB['uuid'])).toMatchObject({
        status: { tag: 'Toegekend', referentie: second.referentie },
        owner: masked(b),
      });
      expect(list.find((c) => c['id'] === elsewhere.uuid)).toMatchObject({
        type: null,
        status: { tag: null, referentie: elsewhere.identificatie, manual: false },
        owner: '******019',
        submittedAt: null,
      });
    },
  );

  it('when the zaaksysteem cannot be reached, then the list answers 503 (nothing is guessed)', async () => {
    system.sim.faults.add({ path: '/zaken/api/v1/zaken', method: 'GET', mode: 'status', status: 500, count: 1 });
    const res = await as.admin(system).get('/api/v1/admin/cases');
    expect(res.status).toBe(503);
    expect(res.body.type).toBe('/problems/unavailable');
  });

  it(
    'when the zaaksysteem drops a pooled connection as a listing read goes out, then ' +
      'the read is sent once more on a new connection and the list answers 200',
    async () => {
      const zakenReads = (from: number) =>
        system.sim.state
          .requests()
          .slice(from)
          .filter((r) => r.method === 'GET' && r.path === '/zaken/api/v1/zaken');
      const before = system.sim.state.requests().length;
      expect((await as.admin(system).get('/api/v1/admin/cases')).status).toBe(200);
      const pages = zakenReads(before).length;
      const log = system.sim.state.requests().length;
      system.sim.faults.add({ path: '/zaken/api/v1/zaken', method: 'GET', mode: 'refuse', count: 1 });

      const res = await as.admin(system).get('/api/v1/admin/cases');

      expect(res.status).toBe(200);
      expect(zakenReads(log).map((r) => r.status)).toEqual(['refused', ...Array<number>(pages).fill(200)]);
    },
  );

  it(
    'when an admin deletes a case by its zaak uuid, then the application and the ' +
      'zaak are gone, with one case:admin-delete row',
    async () => {
      const subject = uniqueSubject();
      const { id, referentie } = await submitIntake(system, subject, 1);
      const zaak = (await mirrored(system, referentie, { documents: 1 })).zaak;

      const res = await as.admin(system).delete(`/api/v1/admin/cases/${String(zaak['uuid'])}`);

      expect(res.status).toBe(204);
      expect((await as.practitioner(system, subject).get(`/api/v1/applications/${id}`)).status).toBe(404);
      await eventually(async () =>
        system.sim.state.zakenWithIdentificatie(referentie).length === 0 ? true : undefined,
      );
      await eventually(async () =>
        (await as.admin(system).delete(`/api/v1/admin/cases/${String(zaak['uuid'])}`)).status === 404
          ? true
          : undefined,
      );
      const rows = await eventually(async () => {
        const found = system
          .audits('case:admin-delete')
          .filter((e) => e.correlationId === res.headers.get('x-correlation-id'));
        return found.length > 0 ? found : undefined;
      });
      expect(rows.map((r) => r.data)).toEqual([
        { action: 'case:admin-delete', resource: 'case', decision: 'allow', role: 'admin' },
      ]);
    },
  );
});

describe('a notification about one of our zaken (ADR 0011)', () => {
  it(
    'when the zaak of a diverged case is notified, then the reconciler looks at it ' +
      'at once, continues from the last step, clears the flag and writes one ' +
      'zaaksysteem-hersteld row',
    async () => {
      system.sim.faults.add({ path: '/zaken/api/v1/rollen', method: 'POST', mode: 'status', status: 500, count: 1 });
      const subject = uniqueSubject();
      const log = logFrom(system);
      const { id, referentie, correlationId } = await submitIntake(system, subject, 0);
      await eventually(async () =>
        (await as.practitioner(system, subject).get(`/api/v1/applications/${id}`)).body.status.manual
          ? true
          : undefined,
      );
      const zaakUrl = String(system.sim.state.zakenWithIdentificatie(referentie)[0]!.zaak['url']);

      const res = await notify(system, {
        kanaal: 'zaken',
        hoofdObject: zaakUrl,
        resource: 'zaak',
        resourceUrl: zaakUrl,
        actie: 'partial_update',
        aanmaakdatum: new Date().toISOString(),
        kenmerken: { bronorganisatie: system.sim.rsin },
      });

      expect(res.status).toBe(204);
      const healed = await eventually(async () => {
        const rows = system
          .audits('zaaksysteem-hersteld')
          .filter((e) => e.data.resource === `case/${referentie}` && e.correlationId === correlationId);
        return rows.length > 0 ? rows : undefined;
      });
      expect(healed.map((r) => r.data)).toEqual([
        { action: 'zaaksysteem-hersteld', resource: `case/${referentie}`, decision: 'allow', role: 'system' },
      ]);
      expect((await as.practitioner(system, subject).get(`/api/v1/applications/${id}`)).body.status).toMatchObject({
        manual: false,
        reden: null,
      });
      const view = await mirrored(system, referentie);
      expect([view.statussen.length, view.rollen.length]).toEqual([1, 1]);
      expect(log().filter((r) => r.operationId === 'zaak_create')).toHaveLength(1);
      expect(
        system
          .audits('zaaksysteem-divergentie')
          .filter((e) => e.data.resource === `case/${referentie}` && e.correlationId === correlationId),
      ).toHaveLength(1);
    },
  );
});
