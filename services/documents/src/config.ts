import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { baseConfigSchema } from '@register/service-kit';

const ms = z.coerce.number().int().min(0);

/** The documents service's environment: the kit's base plus the S3 store, the spool directory and the sweeper. */
export const documentsConfigSchema = baseConfigSchema.extend({
  PORT: baseConfigSchema.shape.PORT.default(8082),
  S3_ENDPOINT: z.url(),
  S3_ACCESS_KEY: z.string().min(1),
  S3_SECRET_KEY: z.string().min(1),
  S3_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'an S3 bucket name').default('documents'),
  S3_REGION: z.string().min(1).default('us-east-1'),
  UPLOAD_TMP_DIR: z.string().min(1).default(path.join(os.tmpdir(), 'register-documents')),
  SWEEP_INTERVAL_MS: ms.min(1000).default(15 * 60 * 1000),
  SWEEP_MIN_AGE_MS: ms.default(60 * 60 * 1000),
  /** Durable consumer of the applications' deletion events; one per deployment. */
  APPLICATION_EVENTS_CONSUMER: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a durable consumer name').default('documents-applications'),
});
export type DocumentsConfig = z.infer<typeof documentsConfigSchema>;
