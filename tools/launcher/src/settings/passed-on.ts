import type { Service } from '../services';
import { settingsOf, type Setting } from './catalog';
import generated from './settings.generated.json';

/** Every setting and who reads it, as the schemas declare them (`npm run env:update` writes the file). */
export const SETTINGS: readonly Setting[] = generated.settings;

/**
 * The services' settings that npm start decides itself (where each service is, what it connects to), with how;
 * it passes every other setting a service reads on from its own environment.
 */
export const DECIDED_BY_NPM_START: Record<string, string> = {
  PORT: 'PORT for the gateway, <SERVICE>_PORT for the others',
  DATABASE_URL: 'database register_<service> on the server of its own DATABASE_URL, or on the embedded PostgreSQL',
  NATS_URL: 'its own NATS_URL, or the embedded nats-server, or in-process',
  INTERNAL_IDENTITY_SECRET: 'its own INTERNAL_IDENTITY_SECRET, or a random one per run',
  LDV_PSEUDONYM_SECRET: 'its own LDV_PSEUDONYM_SECRET, or a fixed development value (ADR 0181)',
  LOG_LEVEL: 'its own LOG_LEVEL for every service, <SERVICE>_LOG_LEVEL for one',
  METRICS_PORT: "each service's default port; METRICS_PORT=off: none; <SERVICE>_METRICS_PORT: one service's",
  S3_ENDPOINT: 'its own S3_ENDPOINT, or the embedded S3 endpoint',
  S3_ACCESS_KEY: "with its own S3_ENDPOINT, its S3_ACCESS_KEY; else the embedded endpoint's",
  S3_SECRET_KEY: "with its own S3_ENDPOINT, its S3_SECRET_KEY; else the embedded endpoint's",
  S3_BUCKET: 'its own S3_BUCKET',
  APPLICATIONS_URL: 'from APPLICATIONS_PORT',
  DOCUMENTS_URL: 'from DOCUMENTS_PORT',
  LETTERS_URL: 'from LETTERS_PORT',
  REFERENCE_URL: 'from REFERENCE_PORT',
  AUDIT_URL: 'from AUDIT_PORT',
};

/**
 * The settings `service` reads that npm start passes on from `env`: `<SERVICE>_<NAME>` (for that service only,
 * e.g. LETTERS_PDF_WORKERS) before `<NAME>`.
 */
export function passedOn(service: Service, env: NodeJS.ProcessEnv): Record<string, string> {
  const passed: Record<string, string> = {};
  for (const name of settingsOf(SETTINGS, service)) {
    if (DECIDED_BY_NPM_START[name]) continue;
    const value = env[`${service.toUpperCase()}_${name}`] ?? env[name];
    if (value !== undefined) passed[name] = value;
  }
  return passed;
}

/** METRICS_PORT: `off` for every service, or `<SERVICE>_METRICS_PORT` for one (one port cannot serve six). */
export function metricsPort(service: Service, env: NodeJS.ProcessEnv): Record<string, string> {
  const own = env[`${service.toUpperCase()}_METRICS_PORT`];
  if (own) return { METRICS_PORT: own };
  return env['METRICS_PORT'] === 'off' ? { METRICS_PORT: 'off' } : {};
}
