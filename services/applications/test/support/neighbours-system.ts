import { caseHandler, practitioner, uniqueSubject } from '@register/testkit';
import { startApplicationsSystem, type ApplicationsSystem } from './system';
import { startDocuments, startReference, type DocumentsNeighbour } from './neighbours';
import { client } from './client';

export interface NeighboursSystem {
  apps: ApplicationsSystem;
  reference: Awaited<ReturnType<typeof startReference>>;
  documents: DocumentsNeighbour;
  close(): Promise<void>;
}

/**
 * The applications service with its real neighbours (reference and documents as their own processes), each on its own
 * database.
 */
export async function startNeighboursSystem(): Promise<NeighboursSystem> {
  const [reference, documents] = await Promise.all([startReference(), startDocuments()]);
  const apps = await startApplicationsSystem({ referenceUrl: reference.url, documentsUrl: documents.url });
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
  practitioner: (system: NeighboursSystem, subject = uniqueSubject()) =>
    Object.assign(client(system.apps.url, practitioner(subject)), { subject }),
  beoordelaar: (system: NeighboursSystem) => client(system.apps.url, caseHandler('mw-1', ['beoordelaar'])),
  admin: (system: NeighboursSystem) => client(system.apps.url, practitioner('100000009', 'admin')),
  caseHandlerWithout: (system: NeighboursSystem) => client(system.apps.url, caseHandler('mw-2', ['lezer'])),
  nobody: (system: NeighboursSystem) => client(system.apps.url, null),
};
