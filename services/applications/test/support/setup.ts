import { caseHandler, practitioner, uniqueSubject } from '@register/testkit';
import { startApplications, type ApplicationsHarness } from './harness';
import { startDocuments, startReference, type DocumentsNeighbour } from './neighbours';
import { client } from './client';

export interface World {
  apps: ApplicationsHarness;
  reference: Awaited<ReturnType<typeof startReference>>;
  documents: DocumentsNeighbour;
  close(): Promise<void>;
}

/**
 * The applications service with its real neighbours (reference and documents as their own processes), each on its own
 * database.
 */
export async function startWorld(): Promise<World> {
  const [reference, documents] = await Promise.all([startReference(), startDocuments()]);
  const apps = await startApplications({ referenceUrl: reference.url, documentsUrl: documents.url });
  return {
    apps,
    reference,
    documents,
    async close() {
      await apps.close();
      await Promise.all([reference.close(), documents.close()]);
    },
  };
}

export const as = {
  practitioner: (world: World, subject = uniqueSubject()) =>
    Object.assign(client(world.apps.url, practitioner(subject)), { subject }),
  beoordelaar: (world: World) => client(world.apps.url, caseHandler('mw-1', ['beoordelaar'])),
  admin: (world: World) => client(world.apps.url, practitioner('100000009', 'admin')),
  caseHandlerWithout: (world: World) => client(world.apps.url, caseHandler('mw-2', ['lezer'])),
  nobody: (world: World) => client(world.apps.url, null),
};
