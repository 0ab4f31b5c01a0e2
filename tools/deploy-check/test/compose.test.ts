// docker-compose.yml: pinned images, a healthcheck on every container, start order on health rather than on start.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

interface ComposeService {
  image?: string;
  build?: unknown;
  healthcheck?: { test?: unknown; disable?: boolean };
  depends_on?: Record<string, { condition?: string }> | string[];
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
  const images = ['postgres:17.6-alpine', 'postgres:17-alpine', 'nats:2.10.29-alpine', 'nats:2.10-alpine', 'minio/minio:RELEASE.2025-04-22T22-12-26Z', 'minio/minio:latest', 'redis'];
  expect(images.filter(pinned)).toEqual(['postgres:17.6-alpine', 'nats:2.10.29-alpine', 'minio/minio:RELEASE.2025-04-22T22-12-26Z']);
});

test('every image is pinned to an exact version (a release tag or a digest, never latest or a minor line)', () => {
  const loose = entries.filter(([, service]) => service.image !== undefined && !pinned(service.image)).map(([name, service]) => `${name}: ${service.image}`);
  expect(loose).toEqual([]);
});

test('every container has a healthcheck', () => {
  const without = entries.filter(([, service]) => !service.healthcheck?.test || service.healthcheck.disable).map(([name]) => name);
  expect(without).toEqual([]);
});

test('the services wait for healthy infrastructure: PostgreSQL and NATS, and documents for MinIO', () => {
  const conditions = (name: string) => {
    const dependsOn = compose.services[name]?.depends_on ?? {};
    return Array.isArray(dependsOn) ? {} : Object.fromEntries(Object.entries(dependsOn).map(([dependency, value]) => [dependency, value.condition]));
  };
  for (const name of ours) {
    expect({ name, ...conditions(name) }).toMatchObject({ name, postgres: 'service_healthy', nats: 'service_healthy' });
  }
  expect(conditions('documents')).toMatchObject({ minio: 'service_healthy' });
});
