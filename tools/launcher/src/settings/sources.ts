import path from 'node:path';
import type { z } from 'zod';
import { telemetrySettingsSchema } from '@register/service-kit';
import { DEFAULT_PORTS, type Service } from '../services';
import { buildCatalog, type Setting } from './catalog';
import { composeSchema, launcherSchema } from './launcher-schema';
import { DECIDED_BY_NPM_START } from './passed-on';

export const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
/** Both written by `npm run env:update`; the settings test compares them with what the schemas generate. */
export const GENERATED_FILE = path.join(ROOT, 'tools/launcher/src/settings/settings.generated.json');
export const ENV_EXAMPLE_FILE = path.join(ROOT, '.env.example');

/**
 * Each service's `configSchema` from its build (services never import each other, and this tool does not
 * depend on them: it reads what `npm run build` made, as the single-process mode does), with the tracing
 * settings every service reads.
 */
export function builtServiceSchemas(): Record<Service, z.ZodObject[]> {
  const schemas = {} as Record<Service, z.ZodObject[]>;
  for (const service of Object.keys(DEFAULT_PORTS) as Service[]) {
    const file = path.join(ROOT, 'services', service, 'dist', 'src', 'context.js');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { configSchema } = require(file) as { configSchema?: z.ZodObject };
    if (!configSchema?.shape) throw new Error(`${file} exports no configSchema (an object schema); build first`);
    schemas[service] = [configSchema, telemetrySettingsSchema];
  }
  return schemas;
}

export const catalogFromBuiltServices = (): Setting[] =>
  buildCatalog(
    { services: builtServiceSchemas(), npmStart: launcherSchema, compose: composeSchema },
    DECIDED_BY_NPM_START,
  );
