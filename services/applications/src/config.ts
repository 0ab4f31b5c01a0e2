import { z } from 'zod';
import { baseConfigSchema, loadConfig } from '@register/service-kit';

export const configSchema = baseConfigSchema.extend({
  REFERENCE_URL: z.url(),
  DOCUMENTS_URL: z.url(),
  SCHOLING_THRESHOLD: z.coerce.number().int().min(1).default(2080),
  LINK_POLL_INTERVAL_MS: z.coerce.number().int().min(50).default(1000),
});
export type Config = z.infer<typeof configSchema>;

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return loadConfig(configSchema, env);
}
