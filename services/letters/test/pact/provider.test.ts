import path from 'node:path';
import { Verifier } from '@pact-foundation/pact';
import { pactsFor, resignInternalIdentity } from '@register/testkit';
import { startLettersSystem, type LettersSystem } from '../support/system';

// ADR 0235: the letters service keeps what its consumers' committed pacts expect of it.
let h: LettersSystem;
beforeAll(async () => {
  h = await startLettersSystem();
});
afterAll(() => h.close());

const stateHandlers = {
  // The test started it: its probes and its description answer as they do.
  'the service is up': () => Promise.resolve(),
  // The service seeds its shipped organisation templates at its start: there is nothing to make.
  'the shipped organisation templates': () => Promise.resolve(),
};

describe('letters as a provider', () => {
  it.each(pactsFor('letters').map((file) => [path.basename(file), file]))('verifies %s', async (_name, file) => {
    await expect(
      new Verifier({
        provider: 'letters',
        providerBaseUrl: h.url,
        pactUrls: [file],
        stateHandlers,
        requestFilter: resignInternalIdentity,
        logLevel: 'warn',
      }).verifyProvider(),
    ).resolves.toBeDefined();
  });
});
