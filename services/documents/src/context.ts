import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  InternalClient,
  baseConfigSchema,
  systemClock,
  type Built,
  type Clock,
  type Logger,
  type ServiceEvents,
  type ProcessingLog,
  type ServiceResources,
} from '@register/service-kit';
import { applicationsDirectory } from './adapters/applications-client';
import { createObjectStorage } from './adapters/s3-object-storage';
import type { DocumentsDb } from './database';
import type { ApplicationDirectory } from './uploads/application-directory';
import type { ObjectStorage } from './uploads/object-storage';

const ms = z.coerce.number().int().min(0);

/**
 * The documents service's environment: the kit's base plus the S3 store, the spool directory, the sweeper and the
 * consumer.
 */
export const configSchema = baseConfigSchema.extend({
  PORT: baseConfigSchema.shape.PORT.default(8082),
  S3_ENDPOINT: z.url().describe('The S3 endpoint of the document bytes, e.g. http://127.0.0.1:9000.'),
  S3_ACCESS_KEY: z.string().min(1).describe("The S3 endpoint's access key."),
  S3_SECRET_KEY: z.string().min(1).describe("The S3 endpoint's secret key."),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'an S3 bucket name')
    .default('documents')
    .describe('The bucket (created when missing).'),
  S3_REGION: z.string().min(1).default('us-east-1').describe("The S3 endpoint's region."),
  UPLOAD_TMP_DIR: z.string().min(1).default(path.join(os.tmpdir(), 'register-documents')).meta({
    description: 'Where uploads are spooled before they go to S3.',
    defaultText: '<OS temp dir>/register-documents',
  }),
  SWEEP_INTERVAL_MS: ms
    .min(1000)
    .default(15 * 60 * 1000)
    .describe('How often the sweeper looks for stale uploads (never linked, or aborted).'),
  SWEEP_MIN_AGE_MS: ms.default(60 * 60 * 1000).describe('How old an upload must be before the sweeper removes it.'),
  // ADR 0006, 0015.
  APPLICATIONS_URL: z
    .url()
    .default('http://127.0.0.1:8081')
    .describe('The applications service: an upload that names an application is checked there.'),
  APPLICATION_EVENTS_CONSUMER: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'a durable consumer name')
    .default('documents-applications')
    .describe("Durable consumer of the applications' deletion events; one per deployment."),
});
export type Config = typeof configSchema._output;

/** Everything the documents service's routes and jobs use. */
export interface Context {
  config: Config;
  logger: Logger;
  clock: Clock;
  db: Kysely<DocumentsDb>;
  events: ServiceEvents;
  /** The document bytes. */
  storage: ObjectStorage;
  /** Whether an upload may name an application. */
  applications: ApplicationDirectory;
  /** The processing log: the system's removal of a deleted case's documents is logged (ADR 0182). */
  processing: ProcessingLog;
}

/** The composition root: the spool directory and the bucket exist before the first request. */
export async function buildContext(
  config: Config,
  { logger, database, events, processing }: ServiceResources<DocumentsDb>,
): Promise<Built<Context>> {
  mkdirSync(config.UPLOAD_TMP_DIR, { recursive: true });
  const storage = createObjectStorage({
    endpoint: config.S3_ENDPOINT,
    accessKey: config.S3_ACCESS_KEY,
    secretKey: config.S3_SECRET_KEY,
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
  });
  await storage.ensureBucket();
  return {
    context: {
      config,
      logger,
      clock: systemClock,
      processing,
      db: database.db,
      events,
      storage,
      applications: applicationsDirectory(
        new InternalClient({
          baseUrl: config.APPLICATIONS_URL,
          secret: config.INTERNAL_IDENTITY_SECRET,
          caller: 'documents',
        }),
      ),
    },
    readiness: { storage: () => storage.ready() },
  };
}
