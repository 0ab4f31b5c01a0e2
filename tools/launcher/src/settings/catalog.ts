import type { z } from 'zod';
import { DEFAULT_PORTS, type Service } from '../services';
import { readingsOf, type Reading } from './describe';

export type { Reading } from './describe';

/** A setting: who reads it (each reader's meaning and default) and, where npm start decides it, how. */
export interface Setting {
  name: string;
  readBy: Reading[];
  /** How `npm start` sets it for the services instead of passing its own environment's value on. */
  npmStart?: string;
}

/** Where the settings come from: each service's config schema, npm start's and docker compose's. */
export interface SettingSources {
  services: Record<Service, z.ZodObject[]>;
  npmStart: z.ZodObject;
  compose: z.ZodObject;
}

/** The services in the order they are documented (the gateway first, as in the README's table). */
export const DOCUMENTED_ORDER = Object.keys(DEFAULT_PORTS) as Service[];

/** The settings in the order the schemas declare them (every service's first). */
export function buildCatalog(sources: SettingSources, decidedByNpmStart: Record<string, string>): Setting[] {
  const byName = new Map<string, Setting>();
  const add = (by: string, schema: z.ZodObject) => {
    for (const { name, reading } of readingsOf(by, schema)) {
      const setting = byName.get(name) ?? { name, readBy: [] };
      setting.readBy.push(reading);
      byName.set(name, setting);
    }
  };
  for (const service of DOCUMENTED_ORDER) for (const schema of sources.services[service]) add(service, schema);
  add('npm start', sources.npmStart);
  add('docker compose', sources.compose);
  return [...byName.values()].map((s) =>
    decidedByNpmStart[s.name] ? { ...s, npmStart: decidedByNpmStart[s.name] } : s,
  );
}

/** The names of the settings `service` reads. */
export const settingsOf = (catalog: readonly Setting[], service: Service): string[] =>
  catalog.filter((s) => s.readBy.some((r) => r.by === service)).map((s) => s.name);
