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

/**
 * No Secret value in any ConfigMap (problems name the keys, never the value), no secret-named key in a ConfigMap
 * or as a literal env value, and every ConfigMap and Secret a container names exists (Secrets only where the
 * manifests are meant to provide them: an overlay, not the base).
 */
export function configProblems(objects: K8sObject[], options: { secretsProvided: boolean }): string[] {
  const problems: string[] = [];
  const configMaps = ofKind<IConfigMap>(objects, 'ConfigMap');
  const secrets = ofKind<ISecret>(objects, 'Secret');

  for (const configMap of configMaps) {
    for (const [key, value] of Object.entries(configMap.data ?? {})) {
      if (secretName.test(key)) problems.push(`ConfigMap/${configMap.metadata?.name}: key ${key} names a secret`);
      for (const secret of secrets) {
        for (const [secretKey, secretValue] of secretValues(secret)) {
          const leaked =
            secretValue.length >= 8 ? value.includes(secretValue) : secretValue !== '' && value === secretValue;
          if (leaked)
            problems.push(
              `ConfigMap/${configMap.metadata?.name}: ${key} contains the value of Secret/${secret.metadata?.name} ${secretKey}`,
            );
        }
      }
    }
  }

  const configMapNames = new Set(configMaps.map((c) => c.metadata?.name));
  const secretNames = new Set(secrets.map((s) => s.metadata?.name));
  for (const deployment of ofKind<IDeployment>(objects, 'Deployment')) {
    for (const container of deployment.spec?.template.spec?.containers ?? []) {
      const report = (problem: string) =>
        problems.push(`Deployment/${deployment.metadata?.name}: container ${container.name}: ${problem}`);
      const configMapRefs = [
        ...(container.envFrom ?? [])
          .filter((s) => s.configMapRef && !s.configMapRef.optional)
          .map((s) => s.configMapRef?.name),
        ...(container.env ?? [])
          .filter((e) => e.valueFrom?.configMapKeyRef && !e.valueFrom.configMapKeyRef.optional)
          .map((e) => e.valueFrom?.configMapKeyRef?.name),
      ];
      const secretRefs = [
        ...(container.envFrom ?? []).filter((s) => s.secretRef && !s.secretRef.optional).map((s) => s.secretRef?.name),
        ...(container.env ?? [])
          .filter((e) => e.valueFrom?.secretKeyRef && !e.valueFrom.secretKeyRef.optional)
          .map((e) => e.valueFrom?.secretKeyRef?.name),
      ];
      for (const name of configMapRefs) if (!configMapNames.has(name)) report(`ConfigMap ${name} does not exist`);
      if (options.secretsProvided)
        for (const name of secretRefs) if (!secretNames.has(name)) report(`Secret ${name} does not exist`);
      for (const variable of container.env ?? []) {
        if (variable.value !== undefined && secretName.test(variable.name))
          report(`${variable.name} is a literal value; it belongs in a Secret`);
      }
    }
  }
  return problems;
}
