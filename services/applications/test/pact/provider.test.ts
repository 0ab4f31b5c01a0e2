import path from 'node:path';
import { Verifier } from '@pact-foundation/pact';
import { pactsFor, resignInternalIdentity } from '@register/testkit';
import { as, startNeighboursSystem, type NeighboursSystem } from '../support/neighbours-system';

// ADR 0235: the applications service keeps what its consumers' committed pacts expect of it. Each state is
// made through the service's own API, beside its real neighbours (reference and documents).
let system: NeighboursSystem;
beforeAll(async () => {
  system = await startNeighboursSystem();
});
afterAll(() => system.close());

async function conceptOf(subject: string): Promise<string> {
  const created = await as.practitioner(system, subject).post('/api/v1/applications', { type: 'intake' });
  if (created.status !== 201) throw new Error(`state: create answered ${created.status}`);
  return created.body.id as string;
}

/** 900000001's herregistratie, submitted with werkervaring and decided by a beoordelaar. */
async function decided(besluit: string, toelichting: string): Promise<string> {
  const me = as.practitioner(system, '900000001');
  const { id } = (await me.post('/api/v1/applications', { type: 'herregistratie' })).body as { id: string };
  const documentId = await system.documents.upload(me.subject, 'herregistratie', 'werkervaring');
  const submitted = await me.post(`/api/v1/applications/${id}/submit`, {
    uren: 100,
    documents: [{ categoryId: 'werkervaring', channel: 'digitaal', documentId }],
  });
  if (submitted.status !== 200) throw new Error(`state: submit answered ${submitted.status}`);
  const decision = await as.beoordelaar(system).post(`/api/v1/beoordeling/${id}/besluit`, { besluit, toelichting });
  if (decision.status !== 200) throw new Error(`state: besluit answered ${decision.status}`);
  return id;
}

const stateHandlers = {
  // The test started it: its probes and its description answer as they do.
  'the service is up': () => Promise.resolve(),
  'a concept application of 900000123': async () => ({ applicationId: await conceptOf('900000123') }),
  'a decided application of 900000001': async (params: unknown) => {
    const { besluit, toelichting } = params as { besluit: string; toelichting: string };
    return { applicationId: await decided(besluit, toelichting) };
  },
  // The service runs without the ZGW settings that turn mirroring on.
  'the case mirror is off': () => Promise.resolve(),
  // A subject that has never applied: nothing to make.
  '900000456 has no application': () => Promise.resolve(),
  // An id no application has: nothing to make.
  'no application 00000000-0000-4000-8000-000000000000': () => Promise.resolve(),
  // The register's demo data (the shipped source of registrations) knows 900000001.
  '900000001 is registered': () => Promise.resolve(),
};

describe('applications as a provider', () => {
  it.each(pactsFor('applications').map((file) => [path.basename(file), file]))('verifies %s', async (_name, file) => {
    await expect(
      new Verifier({
        provider: 'applications',
        providerBaseUrl: system.apps.url,
        pactUrls: [file],
        stateHandlers,
        requestFilter: resignInternalIdentity,
        logLevel: 'warn',
      }).verifyProvider(),
    ).resolves.toBeDefined();
  });
});
