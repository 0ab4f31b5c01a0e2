// The broker and database the overlay expects (ADR 0204): the NATS Helm chart's values and the CloudNativePG
// example, checked against what the example overlay gives the services.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { natsValuesProblems, parseManifests, postgresProblems, renderKustomization, type K8sObject } from '../src';

const k8sDir = process.env.DEPLOY_K8S_DIR ?? path.resolve(__dirname, '../../../deploy/k8s');
const services = ['gateway', 'applications', 'documents', 'letters', 'reference', 'audit'];

let overlay: K8sObject[];
beforeAll(() => {
  overlay = parseManifests(renderKustomization(path.join(k8sDir, 'overlays/example')));
});

const generated = (name: string) => overlay.find((o) => o.metadata.name.startsWith(`${name}-`))!;

describe('deploy/k8s/infrastructure', () => {
  test(
    'the NATS Helm values run a three-node JetStream cluster ' + "over zones that holds the overlay's EVENTS_REPLICAS",
    () => {
      const values = parse(readFileSync(path.join(k8sDir, 'infrastructure/nats-values.yaml'), 'utf8')) as Record<
        string,
        unknown
      >;
      const config = generated('register-config') as unknown as { data: Record<string, string> };
      expect(natsValuesProblems(values, Number(config.data['EVENTS_REPLICAS'] ?? 1))).toEqual([]);
    },
  );

  test(
    'the CloudNativePG Cluster has three instances over zones, ' +
      "and a role and database for each service's DATABASE_URL",
    () => {
      const objects = parseManifests(readFileSync(path.join(k8sDir, 'infrastructure/postgres-cluster.yaml'), 'utf8'));
      const urls = Object.fromEntries(
        services.map((s) => {
          const secret = generated(`${s}-secrets`) as unknown as { data: Record<string, string> };
          return [s, Buffer.from(secret.data['DATABASE_URL']!, 'base64').toString('utf8')];
        }),
      );
      expect(postgresProblems(objects, urls)).toEqual([]);
    },
  );
});
