import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  baseConfigSchema,
  InternalClient,
  systemClock,
  type Built,
  type Clock,
  type Logger,
  type ProcessingLog,
  type ServiceEvents,
  type ServiceResources,
  KeyedBatchQueue,
} from '@register/service-kit';
import { ApplicationsClient } from './adapters/applications-client';
import { KeptBriefsInMemory } from './adapters/kept-briefs';
import { ViewBodiesInMemory } from './adapters/view-bodies';
import { DocumentsClient } from './adapters/documents-client';
import { PdfWorkerPool } from './adapters/pdf-pool';
import type { CaseContextSource } from './case-briefs/case-context-source';
import type { LettersDb } from './database';
import type { BriefWrites, KeptBriefs, ViewBodies } from './briefs/brief-ports';
import { PassageLibrary } from './passages/passage-library';
import { listPassageVersions, seedPassages } from './passages/passages.repository';
import { PASSAGES_SEED } from './passages/passages.seed';
import type { LogoSource } from './rendering/logo-source';
import type { PdfRenderer } from './rendering/pdf-renderer';
import type { LogoRegistry } from './templates/logo-registry';
import { seedTemplates } from './templates/templates.repository';
import { TEMPLATES_SEED } from './templates/templates.seed';

export const configSchema = baseConfigSchema.extend({
  PORT: baseConfigSchema.shape.PORT.default(8083),
  APPLICATIONS_URL: z
    .url()
    .default('http://127.0.0.1:8081')
    .describe("The applications service: a letter's case context (name, register number, besluit)."),
  DOCUMENTS_URL: z.url().default('http://127.0.0.1:8082').describe("The documents service: letterheads' logos."),
  APPLICATION_EVENTS_CONSUMER: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'a durable consumer name')
    .default('letters-applications')
    .describe("Durable consumer of the applications' decisions; one per deployment."),
  // ADR 0010.
  SHARED_BRIEF_SUBJECT: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,64}$/)
    .default('900000001')
    .describe('The practitioner whose demo case the shared working brief (no ?referentie=) is about.'),
  PDF_WORKERS: z.coerce.number().int().min(1).max(16).default(2).describe('Worker threads that render PDF letters.'),
  PDF_QUEUE_MAX: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(200)
    .describe('PDF renders waiting at most; beyond it a PDF request gets 503.'),
  PDF_TIMEOUT_MS: z.coerce.number().int().min(1000).default(20_000).describe('A PDF render gives up after this long.'),
});
export type Config = typeof configSchema._output;

/** How soon the decisions consumer retries a failed event (a redelivery) and pulls again after losing its stream. */
export interface Redelivery {
  retryDelayMs: number;
  restartDelayMs: number;
}

/** Everything the letters service's routes and jobs use. */
export interface Context {
  config: Config;
  logger: Logger;
  clock: Clock;
  db: Kysely<LettersDb>;
  events: ServiceEvents;
  redelivery: Redelivery;
  passages: PassageLibrary;
  caseContexts: CaseContextSource;
  logos: LogoRegistry;
  logoSource: LogoSource;
  pdf: PdfRenderer;
  sharedSubject: string;
  newId: () => string;
  /** The processing log: the system's writing of a case's letter is logged for its practitioner (ADR 0182). */
  processing: ProcessingLog;
  briefWrites: BriefWrites;
  keptBriefs: KeptBriefs;
  viewBodies: ViewBodies;
}

/** The composition root: the shipped passages and letterheads are added (never overwritten) at every start. */
export async function buildContext(
  config: Config,
  { logger, database, events, processing }: ServiceResources<LettersDb>,
): Promise<Built<Context>> {
  const db = database.db;
  await seedPassages(db, PASSAGES_SEED);
  await seedTemplates(db, TEMPLATES_SEED, systemClock.now());
  const passages = new PassageLibrary(await listPassageVersions(db));
  const internal = (baseUrl: string) =>
    new InternalClient({ baseUrl, secret: config.INTERNAL_IDENTITY_SECRET, caller: 'letters' });
  const documents = new DocumentsClient(internal(config.DOCUMENTS_URL), logger.child({ subsystem: 'documents' }));
  const pdf = new PdfWorkerPool({
    size: config.PDF_WORKERS,
    maxQueue: config.PDF_QUEUE_MAX,
    timeoutMs: config.PDF_TIMEOUT_MS,
    logger: logger.child({ subsystem: 'pdf' }),
  });
  return {
    context: {
      config,
      logger,
      clock: systemClock,
      db,
      events,
      redelivery: { retryDelayMs: 5000, restartDelayMs: 1000 },
      passages,
      caseContexts: new ApplicationsClient(internal(config.APPLICATIONS_URL)),
      logos: documents,
      logoSource: documents,
      pdf,
      sharedSubject: config.SHARED_BRIEF_SUBJECT,
      processing,
      newId: randomUUID,
      briefWrites: new KeyedBatchQueue(),
      keptBriefs: new KeptBriefsInMemory(),
      viewBodies: new ViewBodiesInMemory(),
    },
    closers: [{ name: 'pdf-workers', close: () => pdf.close() }],
  };
}
