import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { InternalClient, runWithContext } from '@register/service-kit';
import { pactOutput, signedIdentity, TEST_SECRET } from '@register/testkit';
import { applicationsDirectory } from '../../src/adapters/applications-client';

// ADR 0235: what the documents service needs of the applications service (may an upload name this
// application?), driven through its real client against Pact's mock server.
const { fromProviderState, regex } = MatchersV3;
const output = pactOutput('documents', 'applications');
const pact = new PactV4({ consumer: 'documents', provider: 'applications', dir: output.dir, logLevel: 'warn' });
afterAll(() => output.close());

const correlationId = 'pact-documents-applications';
const identity = signedIdentity({ identity: null, service: { service: 'documents' }, correlationId });
const directory = (url: string) =>
  applicationsDirectory(new InternalClient({ baseUrl: url, secret: TEST_SECRET, caller: 'documents' }));
const APPLICATION_ID = '0b7c4d2e-5f6a-4b8c-9d0e-1f2a3b4c5d6e';

describe('documents → applications (upload target)', () => {
  it("hears that an upload may name the owner's own concept application", async () => {
    await pact
      .addInteraction()
      .given('a concept application of 900000123')
      .uponReceiving('a question whether an upload may name a concept application of its owner')
      .withRequest(
        'GET',
        fromProviderState(
          '/internal/applications/${applicationId}/upload-target',
          `/internal/applications/${APPLICATION_ID}/upload-target`,
        ),
        (b) =>
          b.query({ owner: '900000123' }).headers({
            'x-internal-identity': regex(identity.pattern, identity.example),
            'x-correlation-id': correlationId,
            accept: 'application/json',
          }),
      )
      .willRespondWith(200, (b) => b.jsonBody({ uploadable: true }))
      .executeTest(async (server) => {
        const uploadable = await runWithContext({ correlationId }, () =>
          directory(server.url).uploadable('900000123', APPLICATION_ID),
        );
        expect(uploadable).toBe(true);
      });
  });

  it('writes the pact committed in pacts/ (npm run pacts:update rewrites it)', () => {
    const { written, committed } = output.written();
    expect(written).toEqual(committed);
  });
});
