import path from 'node:path';
import { Verifier } from '@pact-foundation/pact';
import { asUser, pactsFor, practitioner, resignInternalIdentity } from '@register/testkit';
import { startReferenceSystem, type ReferenceSystem } from '../support/system';

// ADR 0235: the reference service keeps what its consumers' committed pacts expect of it.
let h: ReferenceSystem;
beforeAll(async () => {
  h = await startReferenceSystem();
});
afterAll(() => h.close());

async function setFlag(key: string, enabled: boolean): Promise<void> {
  const res = await fetch(`${h.url}/api/v1/admin/flags/${key}`, {
    method: 'PUT',
    headers: { ...asUser(practitioner('100000001', 'admin')), 'content-type': 'application/json' },
    body: JSON.stringify({ enabled }),
  });
  if (res.status !== 204) throw new Error(`setting flag ${key} answered ${res.status}`);
}

const stateHandlers = {
  // The test started it: its probes and its description answer as they do.
  'the service is up': () => Promise.resolve(),
  // Stamdata is shipped: the service seeds it at its start.
  'the stamdata is seeded': () => Promise.resolve(),
  'the flag herregistratie-aanvragen is on': () => setFlag('herregistratie-aanvragen', true),
};

describe('reference as a provider', () => {
  it.each(pactsFor('reference').map((file) => [path.basename(file), file]))('verifies %s', async (_name, file) => {
    await expect(
      new Verifier({
        provider: 'reference',
        providerBaseUrl: h.url,
        pactUrls: [file],
        stateHandlers,
        requestFilter: resignInternalIdentity,
        logLevel: 'warn',
      }).verifyProvider(),
    ).resolves.toBeDefined();
  });
});
