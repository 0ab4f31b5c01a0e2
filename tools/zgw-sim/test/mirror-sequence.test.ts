import type { ZgwSimulator } from '../src';
import { expectContract } from './helpers/contract';
import { createZaak, documentBody, rolBody, startSim, statusBody, zaakBody, zgw, zgwToken } from './helpers/zgw-client';

// The calls the case mirror makes on submit and on a besluit (ADR 0011), each answer checked against the document.
describe('the mirror sequence: zaak, status, rol, document, zaakinformatieobject', () => {
  let sim: ZgwSimulator;
  beforeAll(async () => {
    sim = await startSim();
  });
  afterAll(async () => {
    await sim.close();
  });

  it(
    'when the mirror reads the catalogue for its zaaktype, ' +
      'then it finds the three status types, the initiator role type and the document type',
    async () => {
      const zaaktype = await zgw('GET', sim.zaaktypeUrl);
      const statustypen = await zgw(
        'GET',
        `${sim.catalogiUrl}/statustypen?zaaktype=${encodeURIComponent(sim.zaaktypeUrl)}`,
      );
      const roltypen = await zgw(
        'GET',
        `${sim.catalogiUrl}/roltypen?zaaktype=${encodeURIComponent(sim.zaaktypeUrl)}&omschrijvingGeneriek=initiator`,
      );
      const iotypen = await zgw(
        'GET',
        `${sim.catalogiUrl}/informatieobjecttypen?zaaktype=${encodeURIComponent(sim.zaaktypeUrl)}`,
      );
      const catalogussen = await zgw('GET', `${sim.catalogiUrl}/catalogussen`);

      await expectContract('catalogi', 'zaaktype_read', zaaktype, 200);
      await expectContract('catalogi', 'statustype_list', statustypen, 200);
      await expectContract('catalogi', 'roltype_list', roltypen, 200);
      await expectContract('catalogi', 'informatieobjecttype_list', iotypen, 200);
      await expectContract('catalogi', 'catalogus_list', catalogussen, 200);
      expect(zaaktype.body).toMatchObject({
        url: sim.zaaktypeUrl,
        omschrijving: 'Aanvraag registratie',
        concept: false,
      });
      const byVolgnummer = [...statustypen.body.results].sort((a: any, b: any) => a.volgnummer - b.volgnummer);
      expect(byVolgnummer.map((s: any) => [s.omschrijving, s.volgnummer, s.isEindstatus])).toEqual([
        ['Ingediend', 1, false],
        ['Besluit genomen', 2, false],
        ['Afgehandeld', 3, true],
      ]);
      expect(roltypen.body.results).toEqual([
        expect.objectContaining({ url: sim.catalogi.roltypeInitiatorUrl, omschrijvingGeneriek: 'initiator' }),
      ]);
      expect(iotypen.body.results.map((t: any) => t.url)).toEqual([sim.catalogi.informatieobjecttypeUrl]);
      expect(catalogussen.body.results[0]).toMatchObject({
        rsin: sim.rsin,
        zaaktypen: expect.arrayContaining([sim.zaaktypeUrl]),
      });
      for (const url of [
        ...zaaktype.body.statustypen,
        ...zaaktype.body.roltypen,
        ...zaaktype.body.informatieobjecttypen,
      ]) {
        expect(url.startsWith(`${sim.catalogiUrl}/`)).toBe(true);
      }
    },
  );

  it(
    'when the mirror makes the whole submit sequence and a besluit, ' +
      'then each call is accepted and the zaak reads back complete',
    async () => {
      const content = Buffer.from('%PDF-1.4 diploma');
      const zaakRequest = zaakBody(sim);

      const zaak = await zgw('POST', `${sim.zakenUrl}/zaken`, zaakRequest);
      const ingediend = await zgw('POST', `${sim.zakenUrl}/statussen`, statusBody(sim, zaak.body.url));
      const rol = await zgw('POST', `${sim.zakenUrl}/rollen`, rolBody(sim, zaak.body.url));
      const document = await zgw(
        'POST',
        `${sim.documentenUrl}/enkelvoudiginformatieobjecten`,
        documentBody(sim, content),
      );
      const zio = await zgw('POST', `${sim.zakenUrl}/zaakinformatieobjecten`, {
        zaak: zaak.body.url,
        informatieobject: document.body.url,
      });
      const besluit = await zgw(
        'POST',
        `${sim.zakenUrl}/statussen`,
        statusBody(sim, zaak.body.url, {
          statustype: sim.catalogi.statustypeUrls.besluitGenomen,
          statustoelichting: 'Ingeschreven',
        }),
      );

      await expectContract('zaken', 'zaak_create', zaak, 201);
      await expectContract('zaken', 'status_create', ingediend, 201);
      await expectContract('zaken', 'rol_create', rol, 201);
      await expectContract('documenten', 'enkelvoudiginformatieobject_create', document, 201);
      await expectContract('zaken', 'zaakinformatieobject_create', zio, 201);
      await expectContract('zaken', 'status_create', besluit, 201);
      expect(zaak.body).toMatchObject({
        identificatie: zaakRequest['identificatie'],
        bronorganisatie: sim.rsin,
        zaaktype: sim.zaaktypeUrl,
        vertrouwelijkheidaanduiding: 'vertrouwelijk',
        status: null,
      });
      expect(zaak.headers.get('location')).toBe(zaak.body.url);
      expect(zaak.body.url).toBe(`${sim.zakenUrl}/zaken/${zaak.body.uuid}`);
      expect(rol.body).toMatchObject({
        omschrijvingGeneriek: 'initiator',
        betrokkeneIdentificatie: expect.objectContaining({ inpBsn: '999990019' }),
      });
      expect(document.body).toMatchObject({
        bestandsomvang: content.length,
        inhoud: `${document.body.url}/download?versie=1`,
        locked: false,
      });

      const read = await zgw('GET', zaak.body.url);
      await expectContract('zaken', 'zaak_read', read, 200);
      expect(read.body).toMatchObject({
        status: besluit.body.url,
        rollen: [rol.body.url],
        zaakinformatieobjecten: [zio.body.url],
      });
      const statussen = await zgw('GET', `${sim.zakenUrl}/statussen?zaak=${encodeURIComponent(zaak.body.url)}`);
      await expectContract('zaken', 'status_list', statussen, 200);
      expect(statussen.body.results.map((s: any) => [s.statustype, s.indicatieLaatstGezetteStatus])).toEqual([
        [sim.catalogi.statustypeUrls.ingediend, false],
        [sim.catalogi.statustypeUrls.besluitGenomen, true],
      ]);
      const download = await fetch(document.body.inhoud, { headers: { Authorization: `Bearer ${await zgwToken()}` } });
      expect(download.status).toBe(200);
      expect(Buffer.from(await download.arrayBuffer())).toEqual(content);
      expect(sim.state.zakenWithIdentificatie(String(zaakRequest['identificatie']))).toHaveLength(1);
    },
  );

  it(
    'when the initiator is a person without a BSN (anpIdentificatie), ' +
      'then 201 and the answer leaves inpBsn out instead of a blank the document forbids',
    async () => {
      const zaak = await createZaak(sim);

      const rol = await zgw(
        'POST',
        `${sim.zakenUrl}/rollen`,
        rolBody(sim, zaak.url, { betrokkeneIdentificatie: { anpIdentificatie: '912345678' } }),
      );

      await expectContract('zaken', 'rol_create', rol, 201);
      expect(rol.status).toBe(201);
      expect(rol.body.betrokkeneIdentificatie).toMatchObject({ anpIdentificatie: '912345678' });
      expect(rol.body.betrokkeneIdentificatie).not.toHaveProperty('inpBsn');
    },
  );

  it(
    'zrc-004a: when a document is related to a zaak, ' +
      'then aardRelatieWeergave and registratiedatum are set by the system',
    async () => {
      const zaak = await createZaak(sim);
      const document = await zgw(
        'POST',
        `${sim.documentenUrl}/enkelvoudiginformatieobjecten`,
        documentBody(sim, Buffer.from('x')),
      );
      const before = Date.now();

      const zio = await zgw('POST', `${sim.zakenUrl}/zaakinformatieobjecten`, {
        zaak: zaak.url,
        informatieobject: document.body.url,
        titel: 'Diploma',
      });

      expect(zio.status).toBe(201);
      expect(zio.body.aardRelatieWeergave).toBe('Hoort bij, omgekeerd: kent');
      expect(Date.parse(zio.body.registratiedatum)).toBeGreaterThanOrEqual(before - 1000);
      const list = await zgw('GET', `${sim.zakenUrl}/zaakinformatieobjecten?zaak=${encodeURIComponent(zaak.url)}`);
      await expectContract('zaken', 'zaakinformatieobject_list', list, 200);
      expect(list.body).toEqual([zio.body]);
    },
  );

  it(
    'zrc-005a: when a document is related to a zaak, ' + 'then the Documenten API holds the mirrored relation',
    async () => {
      const zaak = await createZaak(sim);
      const document = await zgw(
        'POST',
        `${sim.documentenUrl}/enkelvoudiginformatieobjecten`,
        documentBody(sim, Buffer.from('y')),
      );

      await zgw('POST', `${sim.zakenUrl}/zaakinformatieobjecten`, {
        zaak: zaak.url,
        informatieobject: document.body.url,
      });

      const relations = await zgw(
        'GET',
        `${sim.documentenUrl}/objectinformatieobjecten?object=${encodeURIComponent(zaak.url)}`,
      );
      await expectContract('documenten', 'objectinformatieobject_list', relations, 200);
      expect(relations.body).toEqual([
        expect.objectContaining({ informatieobject: document.body.url, object: zaak.url, objectType: 'zaak' }),
      ]);
    },
  );

  it(
    'when the admin deletes a zaak, then it, its statussen, ' +
      'rollen and relations are gone and reading it answers 404',
    async () => {
      const zaak = await createZaak(sim);
      await zgw('POST', `${sim.zakenUrl}/statussen`, statusBody(sim, zaak.url));
      await zgw('POST', `${sim.zakenUrl}/rollen`, rolBody(sim, zaak.url));

      const deleted = await zgw('DELETE', zaak.url);

      await expectContract('zaken', 'zaak_delete', deleted, 204);
      expect(deleted.status).toBe(204);
      const read = await zgw('GET', zaak.url);
      await expectContract('zaken', 'zaak_read', read, 404);
      const rollen = await zgw('GET', `${sim.zakenUrl}/rollen?zaak=${encodeURIComponent(zaak.url)}`);
      expect(rollen.body.count).toBe(0);
      expect(sim.state.zaken().some((view) => view.zaak['url'] === zaak.url)).toBe(false);
    },
  );
});
