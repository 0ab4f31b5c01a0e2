import type { Kysely } from 'kysely';
import { z } from 'zod';
import { baseConfigSchema, FlagsClient, InternalClient, systemClock, type Built, type Clock, type FlagReader, type Logger, type ServiceEvents, type ServiceResources } from '@register/service-kit';
import { DemoEducationSource, DemoPopulationSource, DemoRegisterSource } from './adapters/demo-sources';
import { seedDemoData } from './adapters/demo-seed';
import { DocumentsClient } from './adapters/documents-client';
import { ReferenceClient } from './adapters/reference-client';
import type { CaseDocumentsPort } from './assessment/case-documents';
import type { CaseSource } from './cases/case-source';
import { LocalCaseSource } from './cases/local-case-source';
import type { AppDatabase } from './database';
import type { DocumentLinkPort } from './document-linking/document-links';
import type { EducationSource, PopulationSource, RegisterSource, StamdataSource } from './registration/sources';
import type { SubmitDocumentsPort } from './submission/submission-documents';

export const configSchema = baseConfigSchema.extend({
  REFERENCE_URL: z.url(),
  DOCUMENTS_URL: z.url(),
  /** Below this many worked hours an intake needs the scholing answer (rule S1); also served by intake/policy. */
  SCHOLING_THRESHOLD: z.coerce.number().int().min(1).default(2080),
  /** How often the document linker looks for due link jobs. */
  LINK_POLL_INTERVAL_MS: z.coerce.number().int().min(50).default(1000),
});
export type Config = z.infer<typeof configSchema>;

/** The documents service as the features use it (one adapter, the internal HTTP API). */
export type DocumentsPort = SubmitDocumentsPort & DocumentLinkPort & CaseDocumentsPort;

/** Everything the applications service's routes and jobs use. */
export interface Context {
  config: Config;
  logger: Logger;
  clock: Clock;
  db: Kysely<AppDatabase>;
  events: ServiceEvents;
  flags: FlagReader;
  documents: DocumentsPort;
  stamdata: StamdataSource;
  register: RegisterSource;
  population: PopulationSource;
  education: EducationSource;
  /** Where cases are listed and resolved: the local store (a ZGW case source when mirroring is on). */
  cases: CaseSource;
}

/** The composition root: the demo registries are seeded (back to their shipped values) at every start. */
export async function buildContext(config: Config, { logger, database, events }: ServiceResources<AppDatabase>): Promise<Built<Context>> {
  const db = database.db;
  await seedDemoData(db);
  const internal = (baseUrl: string) => new InternalClient({ baseUrl, secret: config.INTERNAL_IDENTITY_SECRET, caller: 'applications' });
  const reference = internal(config.REFERENCE_URL);
  const flags = new FlagsClient(reference, logger.child({ subsystem: 'flags' }));
  flags.listen(events);
  return {
    context: {
      config,
      logger,
      clock: systemClock,
      db,
      events,
      flags,
      documents: new DocumentsClient(internal(config.DOCUMENTS_URL)),
      stamdata: new ReferenceClient(reference),
      register: new DemoRegisterSource(db),
      population: new DemoPopulationSource(db),
      education: new DemoEducationSource(db),
      cases: new LocalCaseSource(db),
    },
    closers: [{ name: 'flags', close: () => flags.close() }],
  };
}
