import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { InternalClient, runWithContext } from '@register/service-kit';
import { pactOutput, signedIdentity, TEST_SECRET } from '@register/testkit';
import { ApplicationsClient } from '../../src/adapters/applications-client';

// ADR 0235: what the letters service needs of the applications service's letter-context API, driven through
// its real client against Pact's mock server.
const { fromProviderState, like, regex } = MatchersV3;
const output = pactOutput('letters', 'applications');
const pact = new PactV4({ consumer: 'letters', provider: 'applications', dir: output.dir, logLevel: 'warn' });
afterAll(() => output.close());

const correlationId = 'pact-letters-applications';
const identity = signedIdentity({ identity: null, service: { service: 'letters' }, correlationId });
const headers = {
  'x-internal-identity': regex(identity.pattern, identity.example),
  'x-correlation-id': correlationId,
  accept: 'application/json',
};
const client = (url: string) =>
  new ApplicationsClient(new InternalClient({ baseUrl: url, secret: TEST_SECRET, caller: 'letters' }));
/** As when a decision event is handled: the event's correlation id goes along. */
const inRequest = <T>(fn: () => Promise<T>) => runWithContext({ correlationId }, fn);

const APPLICATION_ID = '3f0c2a4e-7b1d-4c8e-9a2f-5d6e7f801234';
const DECIDED_AT = '2026-11-20T10:15:30.000Z';

describe('letters → applications (letter context)', () => {
  it("reads a decided case's context: the decision and the practitioner as the register knows them", async () => {
    await pact
      .addInteraction()
      .given('a decided application of 900000001', { besluit: 'afwijzen', toelichting: 'Onvoldoende werkervaring' })
      .uponReceiving("a request for a decided case's letter context")
      .withRequest(
        'GET',
        fromProviderState(
          '/internal/applications/${applicationId}/letter-context',
          `/internal/applications/${APPLICATION_ID}/letter-context`,
        ),
        (b) => b.headers(headers),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({
          applicationId: fromProviderState('${applicationId}', APPLICATION_ID),
          referentie: like('AVG-2026-000001'),
          type: 'herregistratie',
          besluit: 'afwijzen',
          toelichting: 'Onvoldoende werkervaring',
          decidedAt: regex('^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$', DECIDED_AT),
          beroep: like('arts'),
          zorgverlenerNaam: like('A. de Vries'),
          registerNummer: like('10000000101'),
        }),
      )
      .executeTest(async (server) => {
        expect(await inRequest(() => client(server.url).ofCase(APPLICATION_ID))).toEqual({
          applicationId: APPLICATION_ID,
          referentie: 'AVG-2026-000001',
          type: 'herregistratie',
          besluit: 'afwijzen',
          toelichting: 'Onvoldoende werkervaring',
          decidedAt: DECIDED_AT,
          beroep: 'arts',
          zorgverlenerNaam: 'A. de Vries',
          registerNummer: '10000000101',
        });
      });
  });

  it('reads no context for a case that is unknown (a bare 404 is null)', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    await pact
      .addInteraction()
      .given('no application 00000000-0000-4000-8000-000000000000')
      .uponReceiving('a request for the letter context of an unknown case')
      .withRequest('GET', `/internal/applications/${unknown}/letter-context`, (b) => b.headers(headers))
      .willRespondWith(404)
      .executeTest(async (server) => {
        expect(await inRequest(() => client(server.url).ofCase(unknown))).toBeNull();
      });
  });

  it("reads the shared working brief's practitioner: the register fields and no case", async () => {
    await pact
      .addInteraction()
      .given('900000001 is registered')
      .uponReceiving("a request for a practitioner's letter context")
      .withRequest('GET', '/internal/practitioners/900000001/letter-context', (b) => b.headers(headers))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          applicationId: null,
          referentie: null,
          type: null,
          besluit: null,
          toelichting: null,
          decidedAt: null,
          beroep: like('arts'),
          zorgverlenerNaam: like('A. de Vries'),
          registerNummer: like('10000000101'),
        }),
      )
      .executeTest(async (server) => {
        const context = await inRequest(() => client(server.url).ofPractitioner('900000001'));
        expect(context).toMatchObject({ applicationId: null, besluit: null, registerNummer: '10000000101' });
      });
  });

  it('writes the pact committed in pacts/ (npm run pacts:update rewrites it)', () => {
    const { written, committed } = output.written();
    expect(written).toEqual(committed);
  });
});
