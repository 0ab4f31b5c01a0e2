import pino from 'pino';
import { MatchersV3, PactV4 } from '@pact-foundation/pact';
import { FlagsClient, InternalClient, runWithContext } from '@register/service-kit';
import { pactOutput, signedIdentity, TEST_SECRET } from '@register/testkit';
import { ReferenceClient } from '../../src/adapters/reference-client';

// ADR 0235: what the applications service needs of the reference service's internal API, driven through its
// real clients (the stamdata source and the feature flags) against Pact's mock server.
const { eachLike, like, regex } = MatchersV3;
const output = pactOutput('applications', 'reference');
const pact = new PactV4({ consumer: 'applications', provider: 'reference', dir: output.dir, logLevel: 'warn' });
afterAll(() => output.close());

const correlationId = 'pact-applications-reference';
const identity = signedIdentity({ identity: null, service: { service: 'applications' }, correlationId });
const headers = {
  'x-internal-identity': regex(identity.pattern, identity.example),
  'x-correlation-id': correlationId,
  accept: 'application/json',
};
const client = (url: string) => new InternalClient({ baseUrl: url, secret: TEST_SECRET, caller: 'applications' });
/** As within a request of the applications service: the correlation id goes along. */
const inRequest = <T>(fn: () => Promise<T>) => runWithContext({ correlationId }, fn);

describe('applications → reference (internal API)', () => {
  it('reads the policy questions of the intake from the beleidsvragen table', async () => {
    await pact
      .addInteraction()
      .given('the stamdata is seeded')
      .uponReceiving('a request for the beleidsvragen table')
      .withRequest('GET', '/internal/stamdata/beleidsvragen', (b) => b.headers(headers))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          rows: eachLike({ id: like('taalvaardigheid'), vraag: like('Heeft u een bewijs …?'), type: like('ja-nee') }),
        }),
      )
      .executeTest(async (server) => {
        const vragen = await inRequest(() => new ReferenceClient(client(server.url)).beleidsvragen());
        expect(vragen).toEqual([{ id: 'taalvaardigheid', vraag: 'Heeft u een bewijs …?', type: 'ja-nee' }]);
      });
  });

  it('reads the beroep codes from the beroepen table', async () => {
    await pact
      .addInteraction()
      .given('the stamdata is seeded')
      .uponReceiving('a request for the beroepen table')
      .withRequest('GET', '/internal/stamdata/beroepen', (b) => b.headers(headers))
      .willRespondWith(200, (b) => b.jsonBody({ rows: eachLike({ code: like('arts') }) }))
      .executeTest(async (server) => {
        expect(await inRequest(() => new ReferenceClient(client(server.url)).beroepCodes())).toEqual(['arts']);
      });
  });

  it('reads whether a feature flag is on from the flags', async () => {
    await pact
      .addInteraction()
      .given('the flag herregistratie-aanvragen is on')
      .uponReceiving('a request for the feature flags')
      .withRequest('GET', '/internal/flags', (b) => b.headers(headers))
      .willRespondWith(200, (b) =>
        b.jsonBody(eachLike({ key: 'herregistratie-aanvragen', description: like('Herregistratie'), enabled: true })),
      )
      .executeTest(async (server) => {
        const flags = new FlagsClient(client(server.url), pino({ level: 'silent' }), 0);
        expect(await inRequest(() => flags.isEnabled('herregistratie-aanvragen'))).toBe(true);
      });
  });

  it('writes the pact committed in pacts/ (npm run pacts:update rewrites it)', () => {
    const { written, committed } = output.written();
    expect(written).toEqual(committed);
  });
});
