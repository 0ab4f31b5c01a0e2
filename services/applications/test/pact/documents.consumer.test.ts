import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { InternalClient, runWithContext } from '@register/service-kit';
import { pactOutput, signedIdentity, TEST_SECRET } from '@register/testkit';
import { DocumentsClient } from '../../src/adapters/documents-client';

// ADR 0235: what the applications service needs of the documents service's internal API (categories, the
// link rule, linking, a case's documents and their bytes), driven through its real client against Pact's
// mock server.
const { eachLike, fromProviderState, like, regex } = MatchersV3;
const output = pactOutput('applications', 'documents');
const pact = new PactV4({ consumer: 'applications', provider: 'documents', dir: output.dir, logLevel: 'warn' });
afterAll(() => output.close());

const correlationId = 'pact-applications-documents';
const identity = signedIdentity({ identity: null, service: { service: 'applications' }, correlationId });
const signed = regex(identity.pattern, identity.example);
const json = { 'x-internal-identity': signed, 'x-correlation-id': correlationId, accept: 'application/json' };
const client = (url: string) =>
  new DocumentsClient(new InternalClient({ baseUrl: url, secret: TEST_SECRET, caller: 'applications' }), {
    categoriesTtlMs: 0,
  });
/** As within a submit or a mirror run: the correlation id goes along. */
const inRequest = <T>(fn: () => Promise<T>) => runWithContext({ correlationId }, fn);

const OWNER = '900000123';
const APPLICATION_ID = '5e2d8c1a-3b4f-4a6e-8d9c-0f1e2d3c4b5a';
const DOCUMENT_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
/** The bytes of the document in the state: a PDF the documents service accepts. */
const PDF =
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << ' +
  '/Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n';
const upload = {
  owner: OWNER,
  wizardId: 'intake',
  categoryId: 'overig',
  fileName: 'bewijs.pdf',
  contentBase64: Buffer.from(PDF).toString('base64'),
};
const linked = { ...upload, applicationId: APPLICATION_ID };
const documentId = fromProviderState('${documentId}', DOCUMENT_ID);

describe('applications → documents (internal API)', () => {
  it("reads the intake's categories for the answers given, with whether each is required", async () => {
    await pact
      .addInteraction()
      .given('the shipped upload categories')
      .uponReceiving('a request for the categories of the intake with a diploma handed in by hand')
      .withRequest('GET', '/internal/uploads/categories', (b) =>
        b.query({ wizardId: 'intake', diplomaHerkomst: 'handmatig' }).headers(json),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({
          categories: eachLike({ categoryId: like('diploma'), required: like(true), allowPostDelivery: like(false) }),
        }),
      )
      .executeTest(async (server) => {
        const categories = await inRequest(() =>
          client(server.url).categories('intake', { diplomaHerkomst: 'handmatig' }),
        );
        expect(categories).toEqual([{ categoryId: 'diploma', required: true, allowPostDelivery: false }]);
      });
  });

  it("hears that the owner's own upload may be linked (nothing rejected)", async () => {
    await pact
      .addInteraction()
      .given('an upload of 900000123', upload)
      .uponReceiving('a check whether an upload of the owner may be linked')
      .withRequest('POST', '/internal/documents/link-check', (b) =>
        b.headers({ ...json, 'content-type': 'application/json' }).jsonBody({
          applicationId: APPLICATION_ID,
          owner: OWNER,
          documents: [{ documentId, categoryId: 'overig' }],
        }),
      )
      .willRespondWith(200, (b) => b.jsonBody({ rejected: [] }))
      .executeTest(async (server) => {
        const rejected = await inRequest(() =>
          client(server.url).checkLink({
            applicationId: APPLICATION_ID,
            owner: OWNER,
            documents: [{ documentId: DOCUMENT_ID, categoryId: 'overig' }],
          }),
        );
        expect(rejected).toEqual([]);
      });
  });

  it('hears the check refuse a document that is not an upload of the owner, naming it', async () => {
    await pact
      .addInteraction()
      .given('no upload 00000000-0000-4000-8000-000000000000')
      .uponReceiving('a check whether an unknown document may be linked')
      .withRequest('POST', '/internal/documents/link-check', (b) =>
        b.headers({ ...json, 'content-type': 'application/json' }).jsonBody({
          applicationId: APPLICATION_ID,
          owner: OWNER,
          documents: [{ documentId: '00000000-0000-4000-8000-000000000000', categoryId: 'overig' }],
        }),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({
          rejected: [
            { field: 'documents[0].documentId', code: like('invalid-document'), detail: like('Not an upload …') },
          ],
        }),
      )
      .executeTest(async (server) => {
        const rejected = await inRequest(() =>
          client(server.url).checkLink({
            applicationId: APPLICATION_ID,
            owner: OWNER,
            documents: [{ documentId: '00000000-0000-4000-8000-000000000000', categoryId: 'overig' }],
          }),
        );
        expect(rejected).toEqual([
          { field: 'documents[0].documentId', code: 'invalid-document', detail: 'Not an upload …' },
        ]);
      });
  });

  it("links the owner's upload to the submitted application", async () => {
    await pact
      .addInteraction()
      .given('an upload of 900000123', upload)
      .uponReceiving('a link of an upload of the owner to its application')
      .withRequest('POST', '/internal/links', (b) =>
        b.headers({ ...json, 'content-type': 'application/json' }).jsonBody({
          applicationId: APPLICATION_ID,
          owner: OWNER,
          documents: [{ documentId, categoryId: 'overig' }],
        }),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({ linked: [{ documentId, categoryId: 'overig', fileName: like('bewijs.pdf') }] }),
      )
      .executeTest(async (server) => {
        const outcome = await inRequest(() =>
          client(server.url).link(APPLICATION_ID, OWNER, [{ documentId: DOCUMENT_ID, categoryId: 'overig' }]),
        );
        expect(outcome).toEqual({ kind: 'linked' });
      });
  });

  it("reads the documents linked to a case (the assessment's list)", async () => {
    await pact
      .addInteraction()
      .given('a document of 900000123 linked to an application', linked)
      .uponReceiving('a request for the documents linked to an application')
      .withRequest('GET', `/internal/applications/${APPLICATION_ID}/documents`, (b) => b.headers(json))
      .willRespondWith(200, (b) =>
        b.jsonBody(
          eachLike({ documentId: like(DOCUMENT_ID), categoryId: like('overig'), fileName: like('bewijs.pdf') }),
        ),
      )
      .executeTest(async (server) => {
        expect(await inRequest(() => client(server.url).documentsOf(APPLICATION_ID))).toEqual([
          { documentId: DOCUMENT_ID, categoryId: 'overig', fileName: 'bewijs.pdf' },
        ]);
      });
  });

  it("reads a linked document's bytes with their type and file name (the case mirror)", async () => {
    await pact
      .addInteraction()
      .given('a document of 900000123 linked to an application', linked)
      .uponReceiving("a request for a linked document's bytes")
      .withRequest(
        'GET',
        fromProviderState(
          `/internal/applications/${APPLICATION_ID}/documents/\${documentId}/content`,
          `/internal/applications/${APPLICATION_ID}/documents/${DOCUMENT_ID}/content`,
        ),
        (b) => b.headers({ 'x-internal-identity': signed, 'x-correlation-id': correlationId, accept: '*/*' }),
      )
      .willRespondWith(200, (b) =>
        b
          .headers({
            'content-type': 'application/pdf',
            'content-length': String(Buffer.byteLength(PDF)),
            'content-disposition': regex(
              "^attachment; filename\\*=UTF-8''bewijs\\.pdf$",
              "attachment; filename*=UTF-8''bewijs.pdf",
            ),
          })
          .body('application/pdf', Buffer.from(PDF)),
      )
      .executeTest(async (server) => {
        const content = await inRequest(() => client(server.url).contentOf(APPLICATION_ID, DOCUMENT_ID));
        expect(content).toEqual({ bytes: Buffer.from(PDF), contentType: 'application/pdf', fileName: 'bewijs.pdf' });
      });
  });

  it('reads no bytes of a document not linked to that case (a bare 404 is null)', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    await pact
      .addInteraction()
      .given('no upload 00000000-0000-4000-8000-000000000000')
      .uponReceiving('a request for the bytes of a document not linked to the application')
      .withRequest('GET', `/internal/applications/${APPLICATION_ID}/documents/${unknown}/content`, (b) =>
        b.headers({ 'x-internal-identity': signed, 'x-correlation-id': correlationId, accept: '*/*' }),
      )
      .willRespondWith(404)
      .executeTest(async (server) => {
        expect(await inRequest(() => client(server.url).contentOf(APPLICATION_ID, unknown))).toBeNull();
      });
  });

  it('writes the pact committed in pacts/ (npm run pacts:update rewrites it)', () => {
    const { written, committed } = output.written();
    expect(written).toEqual(committed);
  });
});
