import { randomUUID } from 'node:crypto';
import type { ZgwSimulator } from '../src';
import { expectContract } from './helpers/contract';
import { createZaak, documentBody, rolBody, startSim, zaakBody, zgw } from './helpers/zgw-client';

// Requests are validated against the official documents; what fails is answered as Open Zaak does.
describe('request validation against the documents', () => {
  let sim: ZgwSimulator;
  beforeAll(async () => {
    sim = await startSim();
  });
  afterAll(async () => {
    await sim.close();
  });

  it('when POST /zaken lacks the required fields, then a ValidatieFout lists each with code required', async () => {
    const response = await zgw('POST', `${sim.zakenUrl}/zaken`, { omschrijving: 'Zonder verplichte velden' });

    await expectContract('zaken', 'zaak_create', response, 400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(response.body).toMatchObject({
      type: `${sim.url}/ref/fouten/ValidationError/`,
      code: 'invalid',
      title: 'Ongeldige invoer.',
      status: 400,
      instance: expect.stringMatching(/^urn:uuid:/),
    });
    expect(response.body.invalidParams.map((p: any) => [p.name, p.code]).sort()).toEqual([
      ['bronorganisatie', 'required'],
      ['startdatum', 'required'],
      ['verantwoordelijkeOrganisatie', 'required'],
      ['zaaktype', 'required'],
    ]);
  });

  it.each([
    ['startdatum', '2025-02-30', 'invalid'],
    ['bronorganisatie', '12345', 'min_length'],
    ['zaaktype', 'geen url', 'invalid'],
    ['vertrouwelijkheidaanduiding', 'topgeheim', 'invalid_choice'],
    ['omschrijving', 'x'.repeat(81), 'max_length'],
    ['omschrijving', 42, 'invalid'],
    ['opschorting', 'ja', 'invalid'],
  ])('when %s is %j, then 400 with code %s on that field', async (field, value, code) => {
    const response = await zgw('POST', `${sim.zakenUrl}/zaken`, zaakBody(sim, { [field]: value }));

    await expectContract('zaken', 'zaak_create', response, 400);
    expect(response.body.invalidParams).toEqual([expect.objectContaining({ name: field, code })]);
  });

  it.each([
    ['a character outside the base64 alphabet', 'JVBERi0x*jQ='],
    ['a length that is no multiple of 4', 'JVBERi0xLjQ'],
    ['padding inside the text', 'JV==Ri0xLjQ='],
  ])('when inhoud (format byte) has %s, then 400 invalid on inhoud and no document', async (_case, inhoud) => {
    const before = sim.state.documenten().length;

    const response = await zgw(
      'POST',
      `${sim.documentenUrl}/enkelvoudiginformatieobjecten`,
      documentBody(sim, Buffer.alloc(0), { inhoud, bestandsomvang: 8 }),
    );

    await expectContract('documenten', 'enkelvoudiginformatieobject_create', response, 400);
    expect(response.body.invalidParams).toEqual([expect.objectContaining({ name: 'inhoud', code: 'invalid' })]);
    expect(sim.state.documenten()).toHaveLength(before);
  });

  it(
    'when a document of 64 MiB arrives base64-encoded (85.3 MiB of JSON), ' +
      'then it is accepted with its exact bytes',
    async () => {
      const content = Buffer.alloc(64 * 1024 * 1024, 0x25);
      content.write('%PDF-1.4\n');

      const response = await zgw(
        'POST',
        `${sim.documentenUrl}/enkelvoudiginformatieobjecten`,
        documentBody(sim, content),
      );

      expect(response.status).toBe(201);
      expect(response.body.bestandsomvang).toBe(content.length);
      expect(sim.state.documentContent(response.body.url)?.equals(content)).toBe(true);
    },
    60_000,
  );

  it('when a nested field is too long, then its name is the dotted path', async () => {
    const zaak = await createZaak(sim);

    const response = await zgw(
      'POST',
      `${sim.zakenUrl}/rollen`,
      rolBody(sim, zaak.url, { betrokkeneIdentificatie: { inpBsn: '9999900190' } }),
    );

    expect(response.body.invalidParams).toEqual([
      expect.objectContaining({ name: 'betrokkeneIdentificatie.inpBsn', code: 'max_length' }),
    ]);
  });

  it('when betrokkeneType is unknown, then 400 invalid_choice on betrokkeneType', async () => {
    const zaak = await createZaak(sim);

    const response = await zgw('POST', `${sim.zakenUrl}/rollen`, rolBody(sim, zaak.url, { betrokkeneType: 'robot' }));

    await expectContract('zaken', 'rol_create', response, 400);
    expect(response.body.invalidParams).toEqual([
      expect.objectContaining({ name: 'betrokkeneType', code: 'invalid_choice' }),
    ]);
  });

  it('when the body is not JSON, then 400 parse_error', async () => {
    const response = await zgw('POST', `${sim.zakenUrl}/zaken`, undefined, { rawBody: '{"bronorganisatie": ' });

    await expectContract('zaken', 'zaak_create', response, 400);
    expect(response.body).toMatchObject({ code: 'parse_error', type: `${sim.url}/ref/fouten/ParseError/` });
  });

  it('when the body is a JSON array, then 400 on nonFieldErrors', async () => {
    const response = await zgw('POST', `${sim.zakenUrl}/zaken`, [zaakBody(sim)]);

    expect(response.status).toBe(400);
    expect(response.body.invalidParams).toEqual([expect.objectContaining({ name: 'nonFieldErrors', code: 'invalid' })]);
  });

  it('when the body is sent as text/plain, then 415', async () => {
    const response = await zgw('POST', `${sim.zakenUrl}/zaken`, zaakBody(sim), {
      headers: { 'Content-Type': 'text/plain' },
    });

    await expectContract('zaken', 'zaak_create', response, 415);
  });

  it('when a list gets a query parameter the document does not have, then 400 unknown-parameters', async () => {
    const response = await zgw('GET', `${sim.zakenUrl}/zaken?kleur=blauw`);

    await expectContract('zaken', 'zaak_list', response, 400);
    expect(response.body.invalidParams).toEqual([
      expect.objectContaining({ name: 'nonFieldErrors', code: 'unknown-parameters' }),
    ]);
  });

  it('when page is not a number, then 400 invalid on page', async () => {
    const response = await zgw('GET', `${sim.zakenUrl}/zaken?page=eerste`);

    expect(response.status).toBe(400);
    expect(response.body.invalidParams).toEqual([expect.objectContaining({ name: 'page', code: 'invalid' })]);
  });

  it.each([
    ['an unknown uuid', () => `${sim.zakenUrl}/zaken/${randomUUID()}`],
    ['no uuid at all', () => `${sim.zakenUrl}/zaken/not-a-uuid`],
  ])('when GET /zaken/{uuid} has %s, then 404 Niet gevonden', async (_case, url) => {
    const response = await zgw('GET', url());

    await expectContract('zaken', 'zaak_read', response, 404);
    expect(response.body).toMatchObject({ code: 'not_found', title: 'Niet gevonden.' });
  });

  it('when a path is not in any document, then 404', async () => {
    const response = await zgw('GET', `${sim.zakenUrl}/bestaat-niet`);

    expect(response.status).toBe(404);
  });

  it('when the method is not in the document for the path, then 405', async () => {
    const response = await zgw('PUT', `${sim.zakenUrl}/statussen`, {});

    expect(response.status).toBe(405);
    expect(response.body.code).toBe('method_not_allowed');
  });

  it('when an operation of the documents is not served by the simulator, then 501 says so', async () => {
    const zaak = await createZaak(sim);

    const response = await zgw('PATCH', zaak.url, { omschrijving: 'Gewijzigd' });

    expect(response.status).toBe(501);
    expect(response.body).toMatchObject({
      code: 'not_implemented',
      detail: expect.stringContaining('zaak_partial_update'),
    });
  });

  it(
    'when a documented filter the simulator does not apply is used, ' + 'then 501 rather than an unfiltered list',
    async () => {
      const response = await zgw('GET', `${sim.zakenUrl}/zaken?archiefstatus=gearchiveerd`);

      expect(response.status).toBe(501);
      expect(response.body.detail).toContain('archiefstatus');
    },
  );
});
