import pino from 'pino';
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { InternalClient, runWithContext } from '@register/service-kit';
import { pactOutput, signedIdentity, TEST_SECRET } from '@register/testkit';
import { DocumentsClient } from '../../src/adapters/documents-client';

// ADR 0235: what the letters service needs of the documents service's organisation-logo API, driven through
// its real client against Pact's mock server.
const { fromProviderState, regex } = MatchersV3;
const output = pactOutput('letters', 'documents');
const pact = new PactV4({ consumer: 'letters', provider: 'documents', dir: output.dir, logLevel: 'warn' });
afterAll(() => output.close());

const correlationId = 'pact-letters-documents';
const identity = signedIdentity({ identity: null, service: { service: 'letters' }, correlationId });
const signed = regex(identity.pattern, identity.example);
const client = (url: string) =>
  new DocumentsClient(
    new InternalClient({ baseUrl: url, secret: TEST_SECRET, caller: 'letters' }),
    pino({ level: 'silent' }),
  );
/** As within an admin's template request: the correlation id goes along. */
const inRequest = <T>(fn: () => Promise<T>) => runWithContext({ correlationId }, fn);

const LOGO_ID = '6b1e0d2c-1f3a-4b5c-8d7e-9f0a1b2c3d4e';
/** A 1×1 PNG; the state names its bytes, so the provider uploads exactly these. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const PNG = Buffer.from(PNG_BASE64, 'base64');
const logo = { fileName: 'logo.png', contentBase64: PNG_BASE64 };

describe('letters → documents (organisation logos)', () => {
  it('confirms that an id names an uploaded organisation logo', async () => {
    await pact
      .addInteraction()
      .given('an organisation logo is uploaded', logo)
      .uponReceiving('a confirmation of an organisation logo')
      .withRequest(
        'POST',
        fromProviderState('/internal/org-logos/${documentId}/confirm', `/internal/org-logos/${LOGO_ID}/confirm`),
        (b) => b.headers({ 'x-internal-identity': signed, 'x-correlation-id': correlationId }),
      )
      .willRespondWith(200, (b) => b.jsonBody({ documentId: fromProviderState('${documentId}', LOGO_ID) }))
      .executeTest(async (server) => {
        expect(await inRequest(() => client(server.url).isOrganisatieLogo(LOGO_ID))).toBe(true);
      });
  });

  it('hears that an id names no organisation logo (a bare 404 is false)', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    await pact
      .addInteraction()
      .given('no upload 00000000-0000-4000-8000-000000000000')
      .uponReceiving('a confirmation of an id that names no organisation logo')
      .withRequest('POST', `/internal/org-logos/${unknown}/confirm`, (b) =>
        b.headers({ 'x-internal-identity': signed, 'x-correlation-id': correlationId }),
      )
      .willRespondWith(404)
      .executeTest(async (server) => {
        expect(await inRequest(() => client(server.url).isOrganisatieLogo(unknown))).toBe(false);
      });
  });

  it("reads an organisation logo's bytes to draw it", async () => {
    await pact
      .addInteraction()
      .given('an organisation logo is uploaded', logo)
      .uponReceiving("a request for an organisation logo's bytes")
      .withRequest(
        'GET',
        fromProviderState('/internal/org-logos/${documentId}/content', `/internal/org-logos/${LOGO_ID}/content`),
        (b) => b.headers({ 'x-internal-identity': signed, 'x-correlation-id': correlationId }),
      )
      .willRespondWith(200, (b) => b.headers({ 'content-type': 'image/png' }).body('image/png', PNG))
      .executeTest(async (server) => {
        expect(await inRequest(() => client(server.url).logoBytes(LOGO_ID))).toEqual(PNG);
      });
  });

  it('writes the pact committed in pacts/ (npm run pacts:update rewrites it)', () => {
    const { written, committed } = output.written();
    expect(written).toEqual(committed);
  });
});
