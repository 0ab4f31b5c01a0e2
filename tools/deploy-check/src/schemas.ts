import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { describeObject, type K8sObject } from './manifests';

type Model = new (data: never) => { validate(): void };

/**
 * The kinds the manifests may contain, by `apiVersion/kind`. A kind outside this table fails the check rather
 * than passing unvalidated: add its kubernetes-models class here when a manifest needs a new kind.
 */
const models: Record<string, Model> = {
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
};

/**
 * kustomize wraps a Secret's long base64 values over several lines; the API server decodes them as Go's base64
 * decoder does, skipping the line breaks, while the schema's `byte` format does not: drop them before validating.
 */
function asDecoded(obj: K8sObject): K8sObject {
  if (obj.kind !== 'Secret' || typeof obj.data !== 'object' || obj.data === null) return obj;
  const data = Object.fromEntries(
    Object.entries(obj.data).map(([key, value]) => [
      key,
      typeof value === 'string' ? value.replace(/[\r\n]/g, '') : value,
    ]),
  );
  return { ...obj, data };
}

/**
 * Validates each object against the Kubernetes OpenAPI schema of its kind (types, required fields, formats
 * such as quantities). The schemas allow unknown fields, so a misspelt field passes here: the workload checks
 * look for the fields that matter by name.
 */
export function schemaProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const obj of objects) {
    const model = models[`${obj.apiVersion}/${obj.kind}`];
    if (!model) {
      problems.push(
        `${describeObject(obj)}: unknown kind ${obj.apiVersion}/${obj.kind} (not in tools/deploy-check/src/schemas.ts)`,
      );
      continue;
    }
    try {
      new model(asDecoded(obj) as never).validate();
    } catch (err) {
      problems.push(`${describeObject(obj)}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return problems;
}
