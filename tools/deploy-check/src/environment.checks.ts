import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import { type K8sObject, ofKind } from './manifests';

/**
 * A variable a service reads: a secret must come from a Secret; any other from a ConfigMap or the manifest, with the
 * code's default where one is named.
 */
export interface ExpectedVariable {
  name: string;
  secret?: boolean;
  default?: string;
}

type Source =
  { from: 'ConfigMap' | 'literal'; name: string; value: string } | { from: 'Secret'; name: string; known: boolean };

type Container = NonNullable<NonNullable<IDeployment['spec']>['template']['spec']>['containers'][number];
type EnvVar = NonNullable<Container['env']>[number];

interface Stores {
  configMaps: Map<string | undefined, Record<string, string>>;
  secrets: Map<string | undefined, Record<string, string>>;
}

/**
 * Where each variable of a container comes from, as Kubernetes resolves it: `envFrom` in order (a later
 * source wins), then `env` over all of them. A Secret that is not in the manifests (the base) has unknown keys.
 */
function sourcesOf(container: Container, objects: K8sObject[]) {
  const stores: Stores = {
    configMaps: new Map(ofKind<IConfigMap>(objects, 'ConfigMap').map((c) => [c.metadata?.name, c.data ?? {}])),
    secrets: new Map(
      ofKind<ISecret>(objects, 'Secret').map((s) => [s.metadata?.name, { ...(s.data ?? {}), ...(s.stringData ?? {}) }]),
    ),
  };
  const { sources, unknownSecrets } = envFromSources(container, stores);
  for (const variable of container.env ?? []) {
    const source = envSource(variable, stores);
    if (source) sources.set(variable.name, source);
  }
  return { sources, unknownSecrets };
}

/** What `envFrom` passes, in order (a later source wins), and the Secrets it names that the manifests lack. */
function envFromSources(container: Container, stores: Stores) {
  const sources = new Map<string, Source>();
  const unknownSecrets: string[] = [];
  for (const from of container.envFrom ?? []) {
    const configMap = from.configMapRef?.name;
    if (configMap)
      for (const [key, value] of Object.entries(stores.configMaps.get(configMap) ?? {}))
        sources.set(key, { from: 'ConfigMap', name: configMap, value });
    const secret = from.secretRef?.name;
    if (secret && stores.secrets.has(secret))
      for (const key of Object.keys(stores.secrets.get(secret) ?? {}))
        sources.set(key, { from: 'Secret', name: secret, known: true });
    else if (secret) unknownSecrets.push(secret);
  }
  return { sources, unknownSecrets };
}

/** The source an `env` entry gives its variable: a literal, a Secret's key or a ConfigMap's key. */
function envSource(variable: EnvVar, { configMaps, secrets }: Stores): Source | null {
  const secretRef = variable.valueFrom?.secretKeyRef;
  const configRef = variable.valueFrom?.configMapKeyRef;
  if (variable.value !== undefined) return { from: 'literal', name: 'env', value: variable.value };
  if (secretRef) return { from: 'Secret', name: secretRef.name ?? '', known: secrets.has(secretRef.name) };
  if (configRef) {
    const value = configMaps.get(configRef.name)?.[configRef.key] ?? '';
    return { from: 'ConfigMap', name: configRef.name ?? '', value };
  }
  return null;
}

/** What is wrong with where one expected variable comes from, or null. */
function variableProblem(
  variable: ExpectedVariable,
  source: Source | undefined,
  unknownSecrets: string[],
  options: { checkDefaults: boolean },
): string | null {
  if (variable.secret) {
    if (source && source.from !== 'Secret')
      return `${variable.name} comes from ${source.from} ${source.name}; it belongs in a Secret`;
    if (!source && unknownSecrets.length === 0) return `${variable.name} is not passed (no Secret has it)`;
    return null;
  }
  if (!source) return `${variable.name} is not passed`;
  if (source.from === 'Secret')
    return `${variable.name} comes from Secret ${source.name}; it is no secret and belongs in a ConfigMap`;
  if (options.checkDefaults && variable.default !== undefined && source.value !== variable.default)
    return `${variable.name} is ${JSON.stringify(source.value)}, not the default ${JSON.stringify(variable.default)}`;
  return null;
}

/**
 * Every expected variable reaches the named Deployment's containers: a secret from a Secret (where the Secrets
 * are not in the manifests, from a Secret the container names, and from no ConfigMap or literal), any other
 * from a ConfigMap or a literal, with the code's default when `checkDefaults` (the base; an overlay may change them).
 */
export function variableProblems(
  objects: K8sObject[],
  expected: Record<string, ExpectedVariable[]>,
  options: { checkDefaults: boolean },
): string[] {
  const problems: string[] = [];
  const deployments = ofKind<IDeployment>(objects, 'Deployment');
  for (const [name, variables] of Object.entries(expected)) {
    const deployment = deployments.find((d) => d.metadata?.name === name);
    if (!deployment) {
      problems.push(`Deployment/${name}: not in the manifests`);
      continue;
    }
    for (const container of deployment.spec?.template.spec?.containers ?? []) {
      const { sources, unknownSecrets } = sourcesOf(container, objects);
      for (const variable of variables) {
        const problem = variableProblem(variable, sources.get(variable.name), unknownSecrets, options);
        if (problem) problems.push(`Deployment/${name}: container ${container.name}: ${problem}`);
      }
    }
  }
  return problems;
}
