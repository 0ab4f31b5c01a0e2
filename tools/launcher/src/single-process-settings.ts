import type { Infrastructure } from './infra';
import type { Service } from './services';

/** The environment variable that hands the single-process child its settings (JSON). */
export const SINGLE_PROCESS_ENV = 'REGISTER_SINGLE_PROCESS';

export interface SingleProcessSettings {
  infra: Pick<Infrastructure, 'postgresUrl' | 'natsUrl' | 's3' | 'zgw'>;
  ports: Record<Service, number>;
  secret: string;
  databasePrefix?: string;
  logLevel?: string;
  extraEnv?: Partial<Record<Service, NodeJS.ProcessEnv>>;
}
