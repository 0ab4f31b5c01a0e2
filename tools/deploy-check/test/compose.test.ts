// docker-compose.yml: pinned images, a healthcheck on every container, start order on health rather than on start.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import type { ExpectedVariable } from '../src';
import { IDENTITY, ISSUER, MIRROR } from './support/expected-variables';

interface ComposeService {
  image?: string;
  build?: unknown;
  healthcheck?: { test?: unknown; disable?: boolean };
  depends_on?: Record<string, { condition?: string }> | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
}

const file = path.resolve(__dirname, '../../../docker-compose.yml');
const compose = parse(fs.readFileSync(file, 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
const entries = Object.entries(compose.services);
const ours = ['gateway', 'applications', 'documents', 'letters', 'reference', 'audit'];

/** An exact release: x.y.z (PostgreSQL numbers its releases x.y), a MinIO RELEASE stamp, or a digest. */
function pinned(image: string): boolean {
  if (/@sha256:[0-9a-f]{64}$/.test(image)) return true;
  const [name = '', tag = ''] = image.split(/:(?=[^/:]+$)/);
  if (/(^|\/)postgres$/.test(name)) return /^\d+\.\d+(-[a-z][\w.]*)?$/.test(tag);
  return /^v?\d+\.\d+\.\d+([-.][\w.]+)?$/.test(tag) || /^RELEASE\.\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/.test(tag);
}

test('the pin rule tells exact versions from moving ones', () => {
  const images = [
    'postgres:17.6-alpine',
    'postgres:17-alpine',
    'nats:2.10.29-alpine',
    'nats:2.10-alpine',
    'minio/minio:RELEASE.2025-04-22T22-12-26Z',
    'minio/minio:latest',
    'redis',
  ];
  expect(images.filter(pinned)).toEqual([
    'postgres:17.6-alpine',
    'nats:2.10.29-alpine',
    'minio/minio:RELEASE.2025-04-22T22-12-26Z',
  ]);
});

test('every image is pinned to an exact version (a release tag or a digest, never latest or a minor line)', () => {
  const loose = entries
    .filter(([, service]) => service.image !== undefined && !pinned(service.image))
    .map(([name, service]) => `${name}: ${service.image}`);
  expect(loose).toEqual([]);
});

test('every container has a healthcheck', () => {
  const without = entries
    .filter(([, service]) => !service.healthcheck?.test || service.healthcheck.disable)
    .map(([name]) => name);
  expect(without).toEqual([]);
});

test('the services wait for healthy infrastructure: PostgreSQL and NATS, and documents for MinIO', () => {
  const conditions = (name: string) => {
    const dependsOn = compose.services[name]?.depends_on ?? {};
    return Array.isArray(dependsOn)
      ? {}
      : Object.fromEntries(Object.entries(dependsOn).map(([dependency, value]) => [dependency, value.condition]));
  };
  for (const name of ours) {
    expect({ name, ...conditions(name) }).toMatchObject({ name, postgres: 'service_healthy', nats: 'service_healthy' });
  }
  expect(conditions('documents')).toMatchObject({ minio: 'service_healthy' });
});

/**
 * What is wrong with how a service passes `variable`: every value must come from the environment compose runs
 * in: `${NAME:-default}` / `${NAME-default}` with the code's default, or, without a default, no value at all
 * (compose then takes it from the shell or .env, and leaves it unset when it is not there) or `${NAME}`.
 * A literal would silently replace an operator's setting; for a secret it would put the secret in the repository.
 */
function passProblem(environment: ComposeService['environment'], variable: ExpectedVariable): string | null {
  const entries = Array.isArray(environment)
    ? Object.fromEntries(
        environment.map((e) => [e.split('=')[0], e.includes('=') ? e.slice(e.indexOf('=') + 1) : null]),
      )
    : (environment ?? {});
  if (!(variable.name in entries)) return `${variable.name} is not passed`;
  const value = entries[variable.name];
  if (value === null)
    return variable.default === undefined
      ? null
      : `${variable.name} has no default (the code's is ${JSON.stringify(variable.default)})`;
  const interpolated = new RegExp(`^\\$\\{${variable.name}(?:(:?-)(.*)|:?\\?.*)?\\}$`).exec(String(value));
  if (!interpolated) return `${variable.name} is a literal, not taken from the environment`;
  const fallback = interpolated[1] ? interpolated[2] : undefined;
  if (variable.secret && fallback) return `${variable.name} is a secret with a literal default`;
  if (variable.default !== undefined && fallback !== variable.default)
    return (
      `${variable.name} defaults to ${JSON.stringify(fallback ?? null)}` +
      `, not the code's ${JSON.stringify(variable.default)}`
    );
  if (variable.default === undefined && fallback)
    return `${variable.name} has a default the code does not have: ${JSON.stringify(fallback)}`;
  return null;
}

const problemsOf = (service: string, variables: ExpectedVariable[]) =>
  variables
    .map((v) => passProblem(compose.services[service]?.environment, v))
    .filter((p): p is string => p !== null)
    .map((p) => `${service}: ${p}`);

test(
  'the applications service gets every mirror setting from the environment, ' +
    'with the defaults of its code and no secret in the file',
  () => {
    expect(problemsOf('applications', MIRROR)).toEqual([]);
  },
);

test('the gateway gets every identity setting from the environment, with the defaults of its code', () => {
  expect(problemsOf('gateway', [...IDENTITY, ...ISSUER])).toEqual([]);
});

test('every service gets OTEL_EXPORTER_OTLP_ENDPOINT from the environment (unset: no export)', () => {
  expect(ours.flatMap((name) => problemsOf(name, [{ name: 'OTEL_EXPORTER_OTLP_ENDPOINT' }]))).toEqual([]);
});

test('the pass rule tells a setting from the environment from a literal, a missing one and a wrong default', () => {
  const environment = {
    A: null,
    B: '${B:-16}',
    C: '${C-}',
    D: '4',
    E: '${E:-4}',
    F: '${F:-hunter2}',
    G: '${G:?set G}',
    H: 'hunter2',
  };
  const check = (name: string, extra: Partial<ExpectedVariable> = {}) => passProblem(environment, { name, ...extra });
  expect([
    check('A'),
    check('B', { default: '16' }),
    check('C', { default: '' }),
    check('G', { secret: true }),
  ]).toEqual([null, null, null, null]);
  expect([
    check('A', { default: '16' }),
    check('D', { default: '4' }),
    check('E', { default: '16' }),
    check('F', { secret: true }),
    check('H', { secret: true }),
    check('I'),
    check('E'),
  ]).toEqual([
    'A has no default (the code\'s is "16")',
    'D is a literal, not taken from the environment',
    'E defaults to "4", not the code\'s "16"',
    'F is a secret with a literal default',
    'H is a literal, not taken from the environment',
    'I is not passed',
    'E has a default the code does not have: "4"',
  ]);
});
