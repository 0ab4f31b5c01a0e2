import type { Service } from './services';

/** The environment variable that hands the single-process child its settings (JSON). */
export const SINGLE_PROCESS_ENV = 'REGISTER_SINGLE_PROCESS';

export interface SingleProcessSettings {
  /** Each service's environment, made by the launcher as for a process of its own (serviceEnv). */
  envs: Record<Service, NodeJS.ProcessEnv>;
  logLevel?: string;
}
