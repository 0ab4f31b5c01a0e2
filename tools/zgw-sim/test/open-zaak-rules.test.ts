import { randomUUID } from 'node:crypto';
import type { ZgwSimulator } from '../src';
import { expectContract } from './helpers/contract';
import { createZaak, documentBody, rolBody, startSim, statusBody, zaakBody, zgw } from './helpers/zgw-client';

// The rules of the Zaken API standard (ids as in VNG-Realisatie/gemma-postman-tests) and the
// Open Zaak validators a mirror can trip on. Every refusal is a ValidatieFout with Open Zaak's code.
describe('Open Zaak rules', () => {
  let sim: ZgwSimulator;
  beforeAll(async () => {
    sim = await startSim();
  });
  afterAll(async () => {
    await sim.close();
  });

  const invalidParam = (response: { body: any }) => response.body.invalidParams;

  it.each([
    ['a uuid the Catalogi API does not have', () => `${sim.catalogiUrl}/zaaktypen/${randomUUID()}`],
    ['a Catalogi API elsewhere', () => `https://catalogi.elders.example/api/v1/zaaktypen/${randomUUID()}`],
  ])('zrc-001a: when the zaaktype is %s, then 400 bad-url on zaaktype', async (_case, zaaktype) => {
    const response = await zgw('POST', `${sim.zakenUrl}/zaken`, zaakBody(sim, { zaaktype: zaaktype() }));

    await expectContract('zaken', 'zaak_create', response, 400);
    expect(invalidParam(response)).toEqual([expect.objectContaining({ name: 'zaaktype', code: 'bad-url' })]);
  });

  it(
    'zrc-002a: when a second zaak has the identificatie of the first within ' +
      'the bronorganisatie, then 400 identificatie-niet-uniek and still one zaak',
    async () => {
      const first = await createZaak(sim);

      const response = await zgw(
        'POST',
        `${sim.zakenUrl}/zaken`,
        zaakBody(sim, { identificatie: first.identificatie }),
      );

      await expectContract('zaken', 'zaak_create', response, 400);
      expect(invalidParam(response)).toEqual([
        expect.objectContaining({ name: 'identificatie', code: 'identificatie-niet-uniek' }),
      ]);
      expect(sim.state.zakenWithIdentificatie(first.identificatie)).toHaveLength(1);
    },
  );

  it('zrc-002b: when the same identificatie is used by another bronorganisatie, then it is accepted', async () => {
    const first = await createZaak(sim);

    const response = await zgw(
      'POST',
      `${sim.zakenUrl}/zaken`,
      zaakBody(sim, { identificatie: first.identificatie, bronorganisatie: '123456782' }),
    );

    expect(response.status).toBe(201);
  });

  it(
    'zrc-002c: when no identificatie is sent, ' + 'then the zaak gets a generated one, unique in the bronorganisatie',
    async () => {
      const one = await createZaak(sim, { identificatie: undefined });
      const two = await createZaak(sim, { identificatie: undefined });

      expect(one.identificatie).toMatch(/^ZAAK-2025-\d{10}$/);
      expect(two.identificatie).not.toBe(one.identificatie);
    },
  );

  it('zrc-003a: when the informatieobject does not exist, then 400 bad-url on informatieobject', async () => {
    const zaak = await createZaak(sim);

    const response = await zgw('POST', `${sim.zakenUrl}/zaakinformatieobjecten`, {
      zaak: zaak.url,
      informatieobject: `${sim.documentenUrl}/enkelvoudiginformatieobjecten/${randomUUID()}`,
    });

    await expectContract('zaken', 'zaakinformatieobject_create', response, 400);
    expect(invalidParam(response)).toEqual([expect.objectContaining({ name: 'informatieobject', code: 'bad-url' })]);
  });

  it(
    'zrc-007a: when the eindstatus is set on a zaak without resultaat, ' + 'then 400 resultaat-does-not-exist',
    async () => {
      const zaak = await createZaak(sim);

      const response = await zgw(
        'POST',
        `${sim.zakenUrl}/statussen`,
        statusBody(sim, zaak.url, { statustype: sim.catalogi.statustypeUrls.afgehandeld }),
      );

      await expectContract('zaken', 'status_create', response, 400);
      expect(invalidParam(response)).toEqual([
        expect.objectContaining({ name: 'nonFieldErrors', code: 'resultaat-does-not-exist' }),
      ]);
    },
  );

  it(
    'zrc-016a: when the statustype belongs to another zaaktype, ' + 'then 400 zaaktype-mismatch and no status',
    async () => {
      const zaak = await createZaak(sim);

      const response = await zgw(
        'POST',
        `${sim.zakenUrl}/statussen`,
        statusBody(sim, zaak.url, { statustype: sim.catalogi.otherStatustypeUrl }),
      );

      await expectContract('zaken', 'status_create', response, 400);
      expect(invalidParam(response)).toEqual([
        expect.objectContaining({ name: 'nonFieldErrors', code: 'zaaktype-mismatch' }),
      ]);
      expect(sim.state.zakenWithIdentificatie(zaak.identificatie)[0]?.statussen).toEqual([]);
    },
  );

  it(
    'zrc-017a: when the document is of a type the zaaktype does not have, ' +
      'then 400 missing-zaaktype-informatieobjecttype-relation',
    async () => {
      const zaak = await createZaak(sim);
      const document = await zgw(
        'POST',
        `${sim.documentenUrl}/enkelvoudiginformatieobjecten`,
        documentBody(sim, Buffer.from('m'), { informatieobjecttype: sim.catalogi.otherInformatieobjecttypeUrl }),
      );

      const response = await zgw('POST', `${sim.zakenUrl}/zaakinformatieobjecten`, {
        zaak: zaak.url,
        informatieobject: document.body.url,
      });

      await expectContract('zaken', 'zaakinformatieobject_create', response, 400);
      expect(invalidParam(response)).toEqual([
        expect.objectContaining({ name: 'nonFieldErrors', code: 'missing-zaaktype-informatieobjecttype-relation' }),
      ]);
    },
  );

  it('zrc-019a: when the roltype belongs to another zaaktype, then 400 zaaktype-mismatch', async () => {
    const zaak = await createZaak(sim);

    const response = await zgw(
      'POST',
      `${sim.zakenUrl}/rollen`,
      rolBody(sim, zaak.url, { roltype: sim.catalogi.otherRoltypeUrl }),
    );

    await expectContract('zaken', 'rol_create', response, 400);
    expect(invalidParam(response)).toEqual([
      expect.objectContaining({ name: 'nonFieldErrors', code: 'zaaktype-mismatch' }),
    ]);
  });

  it('Open Zaak: when datumStatusGezet lies in the future, then 400 date-in-future', async () => {
    const zaak = await createZaak(sim);

    const response = await zgw(
      'POST',
      `${sim.zakenUrl}/statussen`,
      statusBody(sim, zaak.url, { datumStatusGezet: new Date(Date.now() + 60_000).toISOString() }),
    );

    await expectContract('zaken', 'status_create', response, 400);
    expect(invalidParam(response)).toEqual([
      expect.objectContaining({ name: 'datumStatusGezet', code: 'date-in-future' }),
    ]);
  });

  it(
    'Open Zaak: when a second status has the same (zaak, ' +
      'datumStatusGezet), also written with another offset, then 400 unique',
    async () => {
      const zaak = await createZaak(sim);
      await zgw(
        'POST',
        `${sim.zakenUrl}/statussen`,
        statusBody(sim, zaak.url, { datumStatusGezet: '2025-03-01T09:00:00Z' }),
      );

      const same = await zgw(
        'POST',
        `${sim.zakenUrl}/statussen`,
        statusBody(sim, zaak.url, {
          datumStatusGezet: '2025-03-01T10:00:00+01:00',
          statustype: sim.catalogi.statustypeUrls.besluitGenomen,
        }),
      );
      const later = await zgw(
        'POST',
        `${sim.zakenUrl}/statussen`,
        statusBody(sim, zaak.url, {
          datumStatusGezet: '2025-03-01T09:00:00.000001Z',
          statustype: sim.catalogi.statustypeUrls.besluitGenomen,
        }),
      );

      await expectContract('zaken', 'status_create', same, 400);
      expect(invalidParam(same)).toEqual([expect.objectContaining({ name: 'nonFieldErrors', code: 'unique' })]);
      expect(later.status).toBe(201);
      expect(later.body.datumStatusGezet).toBe('2025-03-01T09:00:00.000001Z');
    },
  );

  it('Open Zaak: when a naive datumStatusGezet is sent, then it is read as Amsterdam time', async () => {
    const zaak = await createZaak(sim);

    const response = await zgw(
      'POST',
      `${sim.zakenUrl}/statussen`,
      statusBody(sim, zaak.url, { datumStatusGezet: '2025-07-01T12:00:00' }),
    );

    expect(response.status).toBe(201);
    expect(response.body.datumStatusGezet).toBe('2025-07-01T10:00:00Z');
  });

  it('Open Zaak: when a zaak gets a second initiator, then 400 max-occurences on roltype', async () => {
    const zaak = await createZaak(sim);
    await zgw('POST', `${sim.zakenUrl}/rollen`, rolBody(sim, zaak.url));

    const response = await zgw('POST', `${sim.zakenUrl}/rollen`, rolBody(sim, zaak.url));

    await expectContract('zaken', 'rol_create', response, 400);
    expect(invalidParam(response)).toEqual([expect.objectContaining({ name: 'roltype', code: 'max-occurences' })]);
  });

  it(
    'Open Zaak: when the initiator BSN fails the eleven-test, ' + 'then 400 on betrokkeneIdentificatie.inpBsn',
    async () => {
      const zaak = await createZaak(sim);

      const response = await zgw(
        'POST',
        `${sim.zakenUrl}/rollen`,
        rolBody(sim, zaak.url, { betrokkeneIdentificatie: { inpBsn: '123456789' } }),
      );

      await expectContract('zaken', 'rol_create', response, 400);
      expect(invalidParam(response)).toEqual([
        { name: 'betrokkeneIdentificatie.inpBsn', code: 'invalid', reason: expect.any(String) },
      ]);
    },
  );

  it('Open Zaak: when bronorganisatie fails the eleven-test, then 400 invalid on bronorganisatie', async () => {
    const response = await zgw('POST', `${sim.zakenUrl}/zaken`, zaakBody(sim, { bronorganisatie: '123456789' }));

    await expectContract('zaken', 'zaak_create', response, 400);
    expect(invalidParam(response)).toEqual([expect.objectContaining({ name: 'bronorganisatie', code: 'invalid' })]);
  });

  it('Open Zaak: when the same document is related to the zaak twice, then 400 unique', async () => {
    const zaak = await createZaak(sim);
    const document = await zgw(
      'POST',
      `${sim.documentenUrl}/enkelvoudiginformatieobjecten`,
      documentBody(sim, Buffer.from('d')),
    );
    await zgw('POST', `${sim.zakenUrl}/zaakinformatieobjecten`, {
      zaak: zaak.url,
      informatieobject: document.body.url,
    });

    const response = await zgw('POST', `${sim.zakenUrl}/zaakinformatieobjecten`, {
      zaak: zaak.url,
      informatieobject: document.body.url,
    });

    expect(response.status).toBe(400);
    expect(invalidParam(response)).toEqual([expect.objectContaining({ name: 'nonFieldErrors', code: 'unique' })]);
  });

  it(
    'Open Zaak: when bestandsomvang differs from the size of ' +
      'the decoded inhoud, then 400 file-size and no document',
    async () => {
      const content = Buffer.from('%PDF-1.4 vijftien');
      const before = sim.state.documenten().length;

      const response = await zgw(
        'POST',
        `${sim.documentenUrl}/enkelvoudiginformatieobjecten`,
        documentBody(sim, content, { bestandsomvang: content.length + 1 }),
      );

      await expectContract('documenten', 'enkelvoudiginformatieobject_create', response, 400);
      expect(invalidParam(response)).toEqual([expect.objectContaining({ name: 'nonFieldErrors', code: 'file-size' })]);
      expect(sim.state.documenten()).toHaveLength(before);
    },
  );
});
