import path from 'node:path';
import { Verifier } from '@pact-foundation/pact';
import { asService, pactsFor, practitioner, resignInternalIdentity, uniqueSubject } from '@register/testkit';
import { startDocumentsSystem, upload, type DocumentsSystem } from '../support/system';

// ADR 0235: the documents service keeps what its consumers' committed pacts expect of it. Each state is made
// through the service's own API: an upload is uploaded, a link is linked.
let h: DocumentsSystem;
beforeAll(async () => {
  h = await startDocumentsSystem();
});
afterAll(() => h.close());

interface Upload {
  owner: string;
  wizardId: string;
  categoryId: string;
  fileName: string;
  /** The bytes, base64: the state names exactly what the consumer reads back. */
  contentBase64: string;
  applicationId?: string;
}

const TYPES: Record<string, string> = { '.pdf': 'application/pdf', '.svg': 'image/svg+xml', '.png': 'image/png' };

async function uploaded(state: Upload, role: 'drafter' | 'admin' = 'drafter'): Promise<string> {
  const res = await upload(h, practitioner(state.owner, role), {
    wizardId: state.wizardId,
    categoryId: state.categoryId,
    file: {
      bytes: Buffer.from(state.contentBase64, 'base64'),
      name: state.fileName,
      type: TYPES[path.extname(state.fileName)] ?? 'application/octet-stream',
    },
  });
  if (res.status !== 201) throw new Error(`state upload answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { documentId: string }).documentId;
}

async function linked(state: Upload & { applicationId: string }): Promise<string> {
  const documentId = await uploaded(state);
  const res = await fetch(`${h.url}/internal/links`, {
    method: 'POST',
    headers: { ...asService('applications'), 'content-type': 'application/json' },
    body: JSON.stringify({
      applicationId: state.applicationId,
      owner: state.owner,
      documents: [{ documentId, categoryId: state.categoryId }],
    }),
  });
  if (res.status !== 200) throw new Error(`state link answered ${res.status}: ${await res.text()}`);
  return documentId;
}

const stateHandlers = {
  // The test started it: its probes and its description answer as they do.
  'the service is up': () => Promise.resolve(),
  // The categories are the service's configuration: there is nothing to make.
  'the shipped upload categories': () => Promise.resolve(),
  // An id no upload has: nothing to make.
  'no upload 00000000-0000-4000-8000-000000000000': () => Promise.resolve(),
  'an upload of 900000123': async (params: unknown) => ({ documentId: await uploaded(params as Upload) }),
  'a document of 900000123 linked to an application': async (params: unknown) => ({
    documentId: await linked(params as Upload & { applicationId: string }),
  }),
  'an organisation logo is uploaded': async (params: unknown) => {
    const { fileName, contentBase64 } = params as { fileName: string; contentBase64: string };
    // An admin holds one logo at a time: each state's logo is another admin's.
    const state = {
      owner: uniqueSubject(),
      wizardId: 'orgtemplate',
      categoryId: 'organisatie-logo',
      fileName,
      contentBase64,
    };
    return { documentId: await uploaded(state, 'admin') };
  },
};

describe('documents as a provider', () => {
  it.each(pactsFor('documents').map((file) => [path.basename(file), file]))('verifies %s', async (_name, file) => {
    await expect(
      new Verifier({
        provider: 'documents',
        providerBaseUrl: h.url,
        pactUrls: [file],
        stateHandlers,
        requestFilter: resignInternalIdentity,
        logLevel: 'warn',
      }).verifyProvider(),
    ).resolves.toBeDefined();
  });
});
