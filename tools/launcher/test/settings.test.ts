import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '@register/service-kit';
import { DEFAULT_PORTS, serviceEnv, type Service } from '../src';
import { settingsOf } from '../src/settings/catalog';
import { renderEnvExample } from '../src/settings/env-example';
import { DECIDED_BY_NPM_START, SETTINGS } from '../src/settings/passed-on';
import { ENV_EXAMPLE_FILE, ROOT, builtServiceSchemas, catalogFromBuiltServices } from '../src/settings/sources';

const services = Object.keys(DEFAULT_PORTS) as Service[];
const infra = {
  postgresUrl: 'postgres://postgres@127.0.0.1:5432/postgres',
  natsUrl: 'nats://127.0.0.1:4222',
  s3: { endpoint: 'http://127.0.0.1:9000', accessKey: 'key', secretKey: 'secret', bucket: 'documents' },
};
const secret = 's'.repeat(32);

/** Environment variables that are no setting of ours: the process's own, and the launcher's hand-over. */
const NOT_SETTINGS = new Set(['PATH', 'HOME', 'TZ', 'TMPDIR']);
/** Where the code that services, npm start and the operator tools run reads the environment. */
const READERS = [
  ...services.map((s) => `services/${s}/src`),
  'libs/service-kit/src',
  'libs/embedded/src',
  'libs/authz/src',
  'libs/contracts/src',
  'libs/problem/src',
  'tools/launcher/src',
  'tools/dead-letters/src',
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return file.endsWith('.ts') ? [file] : [];
  });
}

describe('settings: one list, generated from the config schemas', () => {
  it('when the schemas change, then the committed list must too (npm run env:update): it is what they generate', () => {
    expect(SETTINGS).toEqual(catalogFromBuiltServices());
  });

  it('when the list changes, then .env.example must too: it is generated from the list, defaults and all', () => {
    expect(readFileSync(ENV_EXAMPLE_FILE, 'utf8')).toBe(renderEnvExample(SETTINGS));
  });

  it('when code reads an environment variable directly, then it is a listed setting', () => {
    const listed = new Set(SETTINGS.map((s) => s.name));
    const reads = new Map<string, string>();
    for (const dir of READERS)
      for (const file of sources(path.join(ROOT, dir)))
        for (const m of readFileSync(file, 'utf8').matchAll(
          /\benv(?:\[['"]([A-Z][A-Z0-9_]*)['"]\]|\.([A-Z][A-Z0-9_]*))/g,
        ))
          reads.set(m[1] ?? m[2]!, path.relative(ROOT, file));
    expect(reads.size).toBeGreaterThan(10);
    const unlisted = [...reads].filter(([name]) => !listed.has(name) && !NOT_SETTINGS.has(name));
    expect(unlisted).toEqual([]);
  });

  it('when the README names a default, then it is the one the code has', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const named = [...readme.matchAll(/`([A-Z][A-Z0-9_]+)`\s+\(default\s+`([^`]*)`/g)].map((m) => [m[1]!, m[2]!]);
    expect(named.length).toBeGreaterThan(3);
    const wrong = named.filter(([name, value]) => {
      const setting = SETTINGS.find((s) => s.name === name);
      return !setting?.readBy.some((r) => r.default === value || r.defaultText === value);
    });
    expect(wrong).toEqual([]);
  });
});

describe('npm start passes every setting on to each service that reads it', () => {
  it.each(services)(
    'when npm start has a setting that %s reads, then it gets it, and <SERVICE>_<NAME> for it alone',
    (service) => {
      const passed = settingsOf(SETTINGS, service).filter((name) => !DECIDED_BY_NPM_START[name]);
      expect(passed.length).toBeGreaterThan(5);
      const other = services.find((s) => s !== service)!;
      for (const name of passed) {
        const env = (settings: NodeJS.ProcessEnv) => serviceEnv(service, { infra, settings }, DEFAULT_PORTS, secret);
        expect(env({ [name]: `all-${name}` })[name]).toBe(`all-${name}`);
        expect(env({ [name]: 'all', [`${service.toUpperCase()}_${name}`]: 'own' })[name]).toBe('own');
        expect(env({ [`${other.toUpperCase()}_${name}`]: 'not-mine' })[name]).toBeUndefined();
      }
    },
  );

  it('when npm start has <SERVICE>_LOG_LEVEL or <SERVICE>_METRICS_PORT, then only that service gets it', () => {
    const settings = { AUDIT_LOG_LEVEL: 'debug', GATEWAY_METRICS_PORT: '9999' };
    const env = (service: Service) => serviceEnv(service, { infra, settings, logLevel: 'warn' }, DEFAULT_PORTS, secret);
    expect([env('audit')['LOG_LEVEL'], env('gateway')['LOG_LEVEL']]).toEqual(['debug', 'warn']);
    expect([env('gateway')['METRICS_PORT'], env('audit')['METRICS_PORT']]).toEqual(['9999', undefined]);
  });

  it.each(services)(
    'when npm start is given nothing, then %s still gets a configuration its schema accepts',
    (service) => {
      const [schema] = builtServiceSchemas()[service];
      const config = loadConfig(schema!, serviceEnv(service, { infra, settings: {} }, DEFAULT_PORTS, secret));
      expect(config).toMatchObject({ PORT: DEFAULT_PORTS[service], NATS_URL: infra.natsUrl });
    },
  );
});
