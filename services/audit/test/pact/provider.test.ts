import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Verifier } from '@pact-foundation/pact';
import { eventually, pactsFor, resignInternalIdentity } from '@register/testkit';
import { auditEvent, consumedThrough, publish, startAuditSystem, type AuditSystem } from '../support/system';

// ADR 0235: the audit service keeps what its consumers' committed pacts expect of it. Its rows come from
// events, so a state publishes the event and waits until the service has consumed it.
let h: AuditSystem;
beforeAll(async () => {
  h = await startAuditSystem();
});
afterAll(() => h.close());

const stateHandlers = {
  // The test started it: its probes and its description answer as they do.
  'the service is up': () => Promise.resolve(),
  'an audit entry of a flag change': async () => {
    const seq = await publish(
      h,
      auditEvent({ action: 'flag:set', resource: 'flag/herregistratie-aanvragen', correlationId: randomUUID() }),
    );
    await eventually(() => consumedThrough(h.events, h.durable, seq));
  },
};

describe('audit as a provider', () => {
  it.each(pactsFor('audit').map((file) => [path.basename(file), file]))('verifies %s', async (_name, file) => {
    await expect(
      new Verifier({
        provider: 'audit',
        providerBaseUrl: h.url,
        pactUrls: [file],
        stateHandlers,
        requestFilter: resignInternalIdentity,
        logLevel: 'warn',
      }).verifyProvider(),
    ).resolves.toBeDefined();
  });
});
