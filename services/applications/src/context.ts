import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  baseConfigSchema,
  duration,
  FlagsClient,
  InternalClient,
  systemClock,
  type Built,
  type Clock,
  type FlagReader,
  type Logger,
  type RequestLoad,
  type ServiceEvents,
  type ProcessingLog,
  type ServiceResources,
} from '@register/service-kit';
import { DemoEducationSource, DemoPopulationSource, DemoRegisterSource } from './adapters/demo-sources';
import { seedDemoData } from './adapters/demo-seed';
import { DocumentsClient } from './adapters/documents-client';
import { ReferenceClient } from './adapters/reference-client';
import { ZgwClient } from './adapters/zgw-client';
import type { CaseDocumentsPort } from './assessment/case-documents';
import type { DocumentContentPort } from './case-mirror/document-content';
import { mirrorGauges } from './case-mirror/case-mirror.metrics';
import type { CaseMirror } from './case-mirror/mirror-case.types';
import { passesElevenTest } from './case-mirror/mirror-rules';
import { ZgwCaseSource } from './case-mirror/zgw-case-source';
import { ZgwCatalog } from './case-mirror/zgw-catalog';
import type { CaseSource } from './cases/case-source';
import { LocalCaseSource } from './cases/local-case-source';
import type { AppDatabase } from './database';
import type { DocumentLinkPort } from './document-linking/document-links';
import type { EducationSource, PopulationSource, RegisterSource, StamdataSource } from './registration/sources';
import type { SubmitDocumentsPort } from './submission/submission-documents';

/** An empty variable counts as not set (compose files pass `VAR=` through). */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
const apiRoot = optional(z.url().transform((u) => u.replace(/\/+$/, '')));

export const configSchema = baseConfigSchema
  .extend({
    PORT: baseConfigSchema.shape.PORT.default(8081),
    REFERENCE_URL: z.url().describe('The reference service (stamdata, feature flags).'),
    DOCUMENTS_URL: z.url().describe('The documents service (what a submission links, what a case shows).'),
    /** Rule S1; also served by intake/policy. */
    SCHOLING_THRESHOLD: z.coerce
      .number()
      .int()
      .min(1)
      .default(2080)
      .describe('Below this many worked hours an intake needs the scholing answer (GET /api/v1/intake/policy).'),
    LINK_POLL_INTERVAL_MS: z.coerce
      .number()
      .int()
      .min(50)
      .default(1000)
      .describe('How often the document-link retrier looks for due links.'),
    // ADR 0011: mirroring into a ZGW case system (off: nothing of it runs).
    ZGW_ENABLED: z
      .stringbool()
      .default(false)
      .describe(
        'Mirror every submitted application into a ZGW case system (Zaken, Documenten, Catalogi APIs); ' +
          'true needs every ZGW_* URL, ZGW_CLIENT_ID, ZGW_SECRET and ZGW_RSIN.',
      ),
    ZGW_ZAKEN_URL: apiRoot.describe('The Zaken API root, e.g. https://zgw.example.org/zaken/api/v1.'),
    ZGW_DOCUMENTEN_URL: apiRoot.describe('The Documenten API root.'),
    ZGW_CATALOGI_URL: apiRoot.describe('The Catalogi API root.'),
    ZGW_ZAAKTYPE_URL: optional(z.url()).describe('The zaaktype every zaak gets (a URL in the Catalogi API).'),
    ZGW_CLIENT_ID: optional(z.string().max(200)).describe('The client id in the JWTs sent to the ZGW APIs.'),
    ZGW_SECRET: optional(z.string()).describe('The HS256 secret those JWTs are signed with.'),
    ZGW_RSIN: optional(z.string().refine(passesElevenTest, '9 digits that pass the eleven-test')).describe(
      "The register's RSIN (bronorganisatie): 9 digits that pass the eleven-test.",
    ),
    ZGW_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .min(100)
      .max(600_000)
      .default(10_000)
      .describe('A call to the ZGW APIs gives up after this long.'),
    ZGW_MIRROR_POLL_INTERVAL_MS: z.coerce
      .number()
      .int()
      .min(20)
      .default(500)
      .describe('How often the mirror looks for owed work.'),
    ZGW_MIRROR_CONCURRENCY: z.coerce
      .number()
      .int()
      .min(1)
      .max(100)
      .default(16)
      .describe('How many cases the mirror works at once.'),
    ZGW_MIRROR_YIELD_RPS: z.coerce
      .number()
      .int()
      .min(0)
      .default(50)
      .describe(
        'While the service answers more requests a second than this, the mirror works one case per poll interval ' +
          'and catches up once the load drops (0: it never yields).',
      ),
    ZGW_RECONCILE_INTERVAL_MS: z.coerce
      .number()
      .int()
      .min(100)
      .default(300_000)
      .describe('A case that diverged from the case system is tried again at most this often.'),
    ZGW_RECONCILE_WINDOW: duration
      .pipe(z.number().int().min(1000))
      .prefault('48h')
      .describe('… for this long after it diverged (48h, 90m, ms).'),
    NOTIFICATIES_AUTH: optional(z.string().max(1000)).describe(
      'The exact Authorization value the notification webhook (POST /api/v1/notificaties) accepts; unset: every ' +
        'call 401 (fail closed).',
    ),
  })
  .superRefine((c, issue) => {
    if (!c.ZGW_ENABLED) return;
    for (const name of [
      'ZGW_ZAKEN_URL',
      'ZGW_DOCUMENTEN_URL',
      'ZGW_CATALOGI_URL',
      'ZGW_ZAAKTYPE_URL',
      'ZGW_CLIENT_ID',
      'ZGW_SECRET',
      'ZGW_RSIN',
    ] as const) {
      if (!c[name]) issue.addIssue({ code: 'custom', path: [name], message: 'required when ZGW_ENABLED is true' });
    }
  });
export type Config = z.infer<typeof configSchema>;

/** The documents service as the features use it (one adapter, the internal HTTP API). */
export type DocumentsPort = SubmitDocumentsPort & DocumentLinkPort & CaseDocumentsPort & DocumentContentPort;

/** Everything the applications service's routes and jobs use. */
export interface Context {
  /** The processing log: what jobs write their processing of a practitioner's data to (ADR 0182). */
  processing: ProcessingLog;
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
  /** Where cases are listed and resolved: the local store, or the zaaksysteem's zaken while mirroring is on. */
  cases: CaseSource;
  /** The case mirror (ADR 0011); null while ZGW_ENABLED is false. */
  mirror: CaseMirror | null;
}

/** The mirror's ZGW client, catalogue and settings, when mirroring is on. */
function buildMirror(config: Config, logger: Logger, requests: RequestLoad): CaseMirror | null {
  if (!config.ZGW_ENABLED) return null;
  const target = {
    zakenUrl: config.ZGW_ZAKEN_URL!,
    documentenUrl: config.ZGW_DOCUMENTEN_URL!,
    zaaktypeUrl: config.ZGW_ZAAKTYPE_URL!,
    rsin: config.ZGW_RSIN!,
  };
  const zgw = new ZgwClient({
    clientId: config.ZGW_CLIENT_ID!,
    secret: config.ZGW_SECRET!,
    zakenUrl: target.zakenUrl,
    timeoutMs: config.ZGW_TIMEOUT_MS,
  });
  const yieldAbove = config.ZGW_MIRROR_YIELD_RPS;
  return {
    zgw,
    catalog: new ZgwCatalog(zgw, { catalogiUrl: config.ZGW_CATALOGI_URL!, zaaktypeUrl: target.zaaktypeUrl }),
    target,
    logger: logger.child({ subsystem: 'case-mirror' }),
    // Longer than one step at its worst (3 attempts of a lookup and a create, each up to the timeout, and
    // the pauses), renewed after every step; a crashed claim's case is taken up again after it.
    leaseMs: 6 * config.ZGW_TIMEOUT_MS + 5000,
    reconcileMs: config.ZGW_RECONCILE_INTERVAL_MS,
    windowMs: config.ZGW_RECONCILE_WINDOW,
    busy: () => yieldAbove > 0 && requests.perSecond() > yieldAbove,
  };
}

/** The composition root: the demo registries are seeded (back to their shipped values) at every start. */
export async function buildContext(
  config: Config,
  { logger, database, events, processing, requests }: ServiceResources<AppDatabase>,
): Promise<Built<Context>> {
  const db = database.db;
  await seedDemoData(db);
  const internal = (baseUrl: string) =>
    new InternalClient({ baseUrl, secret: config.INTERNAL_IDENTITY_SECRET, caller: 'applications' });
  const reference = internal(config.REFERENCE_URL);
  const flags = new FlagsClient(reference, logger.child({ subsystem: 'flags' }));
  flags.listen(events);
  const documents = new DocumentsClient(internal(config.DOCUMENTS_URL));
  const local = new LocalCaseSource(db);
  const mirror = buildMirror(config, logger, requests);
  return {
    context: {
      processing,
      config,
      logger,
      clock: systemClock,
      db,
      events,
      flags,
      documents,
      stamdata: new ReferenceClient(reference),
      register: new DemoRegisterSource(db),
      population: new DemoPopulationSource(db),
      education: new DemoEducationSource(db),
      cases: mirror ? new ZgwCaseSource(local, { db, ...mirror }) : local,
      mirror,
    },
    closers: [{ name: 'flags', close: () => flags.close() }],
    ...(mirror ? { metrics: mirrorGauges(db, mirror) } : {}),
  };
}
