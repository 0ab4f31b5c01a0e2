import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import { type K8sObject, ofKind } from './manifests';

/** A variable a service reads: a secret must come from a Secret; any other from a ConfigMap or the manifest, with the code's default where one is named. */
export interface ExpectedVariable {
  name: string;
  secret?: boolean;
  default?: string;
}

type Source =
  { from: 'ConfigMap' | 'literal'; name: string; value: string } | { from: 'Secret'; name: string; known: boolean };

/**
 * Where each variable of a container comes from, as Kubernetes resolves it: `envFrom` in order (a later
 * source wins), then `env` over all of them. A Secret that is not in the manifests (the base) has unknown keys.
 */
function sourcesOf(
  container: NonNullable<NonNullable<IDeployment['spec']>['template']['spec']>['containers'][number],
  objects: K8sObject[],
) {
  const configMaps = new Map(ofKind<IConfigMap>(objects, 'ConfigMap').map((c) => [c.metadata?.name, c.data ?? {}]));
  const secrets = new Map(
    ofKind<ISecret>(objects, 'Secret').map((s) => [s.metadata?.name, { ...(s.data ?? {}), ...(s.stringData ?? {}) }]),
  );
  const sources = new Map<string, Source>();
  const unknownSecrets: string[] = [];
  for (const from of container.envFrom ?? []) {
    const configMap = from.configMapRef?.name;
    if (configMap)
      for (const [key, value] of Object.entries(configMaps.get(configMap) ?? {}))
        sources.set(key, { from: 'ConfigMap', name: configMap, value });
    const secret = from.secretRef?.name;
    if (secret && secrets.has(secret))
      for (const key of Object.keys(secrets.get(secret) ?? {}))
        sources.set(key, { from: 'Secret', name: secret, known: true });
    else if (secret) unknownSecrets.push(secret);
  }
  for (const variable of container.env ?? []) {
    const secretRef = variable.valueFrom?.secretKeyRef;
    const configRef = variable.valueFrom?.configMapKeyRef;
    if (variable.value !== undefined)
      sources.set(variable.name, { from: 'literal', name: 'env', value: variable.value });
    else if (secretRef)
      sources.set(variable.name, { from: 'Secret', name: secretRef.name ?? '', known: secrets.has(secretRef.name) });
    else if (configRef)
      sources.set(variable.name, {
        from: 'ConfigMap',
        name: configRef.name ?? '',
        value: configMaps.get(configRef.name)?.[configRef.key] ?? '',
      });
  }
  return { sources, unknownSecrets };
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
      const report = (problem: string) => problems.push(`Deployment/${name}: container ${container.name}: ${problem}`);
      const { sources, unknownSecrets } = sourcesOf(container, objects);
      for (const variable of variables) {
        const source = sources.get(variable.name);
        if (variable.secret) {
          if (source && source.from !== 'Secret')
            report(`${variable.name} comes from ${source.from} ${source.name}; it belongs in a Secret`);
          else if (!source && unknownSecrets.length === 0) report(`${variable.name} is not passed (no Secret has it)`);
          continue;
        }
        if (!source) report(`${variable.name} is not passed`);
        else if (source.from === 'Secret')
          report(`${variable.name} comes from Secret ${source.name}; it is no secret and belongs in a ConfigMap`);
        else if (options.checkDefaults && variable.default !== undefined && source.value !== variable.default)
          report(
            `${variable.name} is ${JSON.stringify(source.value)}, not the default ${JSON.stringify(variable.default)}`,
          );
      }
    }
  }
  return problems;
}
