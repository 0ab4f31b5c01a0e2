import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import { type K8sObject, ofKind } from './manifests';

/** Names that hold a secret wherever they appear; such a key belongs in a Secret, never a ConfigMap or a literal. */
const secretName = /SECRET|PASSWORD|PASSWD|TOKEN|PRIVATE_KEY|ACCESS_KEY|_AUTH$|^DATABASE_URL$/;

/** A Secret's values in plain text, by key. */
function secretValues(secret: ISecret): Array<[string, string]> {
  const decoded = Object.entries(secret.data ?? {}).map(([key, value]): [string, string] => [
    key,
    Buffer.from(value, 'base64').toString('utf8'),
  ]);
  return [...decoded, ...Object.entries(secret.stringData ?? {})];
}

type Container = NonNullable<NonNullable<IDeployment['spec']>['template']['spec']>['containers'][number];

/** A Secret value of 8 characters or more anywhere in the text; a shorter one only as the whole value. */
function leaks(value: string, secretValue: string): boolean {
  return secretValue.length >= 8 ? value.includes(secretValue) : secretValue !== '' && value === secretValue;
}

/** Secret-named keys in ConfigMaps, and ConfigMap values that carry a Secret's value (named by key, never shown). */
function configMapProblems(configMaps: IConfigMap[], secrets: ISecret[]): string[] {
  const problems: string[] = [];
  for (const configMap of configMaps) {
    const where = `ConfigMap/${configMap.metadata?.name}`;
    for (const [key, value] of Object.entries(configMap.data ?? {})) {
      if (secretName.test(key)) problems.push(`${where}: key ${key} names a secret`);
      for (const secret of secrets) {
        for (const [secretKey, secretValue] of secretValues(secret)) {
          if (leaks(value, secretValue))
            problems.push(`${where}: ${key} contains the value of Secret/${secret.metadata?.name} ${secretKey}`);
        }
      }
    }
  }
  return problems;
}

/** The ConfigMaps (or Secrets) a container needs: named in `envFrom` or `env` and not optional. */
function requiredRefs(container: Container, kind: 'configMap' | 'secret'): Array<string | undefined> {
  const fromRef = kind === 'configMap' ? 'configMapRef' : 'secretRef';
  const keyRef = kind === 'configMap' ? 'configMapKeyRef' : 'secretKeyRef';
  return [
    ...(container.envFrom ?? []).flatMap((s) => (s[fromRef] && !s[fromRef].optional ? [s[fromRef].name] : [])),
    ...(container.env ?? []).flatMap((e) => {
      const ref = e.valueFrom?.[keyRef];
      return ref && !ref.optional ? [ref.name] : [];
    }),
  ];
}

function containerProblems(
  container: Container,
  known: { configMaps: Set<string | undefined>; secrets: Set<string | undefined> },
  options: { secretsProvided: boolean },
): string[] {
  const problems: string[] = [];
  for (const name of requiredRefs(container, 'configMap'))
    if (!known.configMaps.has(name)) problems.push(`ConfigMap ${name} does not exist`);
  if (options.secretsProvided)
    for (const name of requiredRefs(container, 'secret'))
      if (!known.secrets.has(name)) problems.push(`Secret ${name} does not exist`);
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined && secretName.test(variable.name))
      problems.push(`${variable.name} is a literal value; it belongs in a Secret`);
  }
  return problems;
}

/**
 * No Secret value in any ConfigMap (problems name the keys, never the value), no secret-named key in a ConfigMap
 * or as a literal env value, and every ConfigMap and Secret a container names exists (Secrets only where the
 * manifests are meant to provide them: an overlay, not the base).
 */
export function configProblems(objects: K8sObject[], options: { secretsProvided: boolean }): string[] {
  const configMaps = ofKind<IConfigMap>(objects, 'ConfigMap');
  const secrets = ofKind<ISecret>(objects, 'Secret');
  const known = {
    configMaps: new Set(configMaps.map((c) => c.metadata?.name)),
    secrets: new Set(secrets.map((s) => s.metadata?.name)),
  };
  const problems = configMapProblems(configMaps, secrets);
  for (const deployment of ofKind<IDeployment>(objects, 'Deployment')) {
    for (const container of deployment.spec?.template.spec?.containers ?? []) {
      for (const problem of containerProblems(container, known, options))
        problems.push(`Deployment/${deployment.metadata?.name}: container ${container.name}: ${problem}`);
    }
  }
  return problems;
}
