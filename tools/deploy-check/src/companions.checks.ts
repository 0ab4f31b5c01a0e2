import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IService } from 'kubernetes-models/v1/Service';
import { type K8sObject, ofKind } from './manifests';

type Labels = Record<string, string>;

/** True when every label of the selector is on the pod (a selector without labels selects nothing here). */
function selects(selector: Labels | undefined, labels: Labels): boolean {
  const entries = Object.entries(selector ?? {});
  return entries.length > 0 && entries.every(([key, value]) => labels[key] === value);
}

interface Companions {
  services: IService[];
  autoscalers: IHorizontalPodAutoscaler[];
  budgets: IPodDisruptionBudget[];
}

/**
 * Each Deployment has a Service on its http port, a CPU HorizontalPodAutoscaler of at least two replicas and a
 * PodDisruptionBudget, all selecting its pods; and nothing of those three points at no Deployment.
 */
export function companionProblems(objects: K8sObject[]): string[] {
  const deployments = ofKind<IDeployment>(objects, 'Deployment');
  const companions: Companions = {
    services: ofKind<IService>(objects, 'Service'),
    autoscalers: ofKind<IHorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler'),
    budgets: ofKind<IPodDisruptionBudget>(objects, 'PodDisruptionBudget'),
  };
  const podLabels = deployments.map((d) => d.spec?.template.metadata?.labels ?? {});
  return [
    ...deployments.flatMap((deployment, index) => {
      const name = deployment.metadata?.name ?? '';
      const problems = deploymentProblems(deployment, name, podLabels[index] ?? {}, companions);
      return problems.map((problem) => `Deployment/${name}: ${problem}`);
    }),
    ...orphanProblems(deployments, podLabels, companions),
    ...ingressProblems(ofKind<IIngress>(objects, 'Ingress'), companions.services),
  ];
}

function deploymentProblems(deployment: IDeployment, name: string, labels: Labels, companions: Companions): string[] {
  const problems: string[] = [];
  if (!selects(deployment.spec?.selector.matchLabels, labels))
    problems.push('its selector does not select its own pod template');
  const onHttp = (s: IService) =>
    selects(s.spec?.selector, labels) && s.spec?.ports?.some((p) => p.targetPort === 'http');
  if (!companions.services.some(onHttp)) problems.push('no Service selects its pods on port http');
  const autoscaler = companions.autoscalers.find(
    (h) => h.spec?.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === name,
  );
  if (!autoscaler) problems.push('no HorizontalPodAutoscaler');
  else problems.push(...autoscalerProblems(autoscaler));
  if (!companions.budgets.some((b) => selects(b.spec?.selector?.matchLabels, labels)))
    problems.push('no PodDisruptionBudget selects its pods');
  return problems;
}

function autoscalerProblems(autoscaler: IHorizontalPodAutoscaler): string[] {
  const problems: string[] = [];
  if ((autoscaler.spec?.minReplicas ?? 1) < 2)
    problems.push(
      'its HorizontalPodAutoscaler allows fewer than 2 replicas ' +
        '(a disruption budget then blocks drains or protects nothing)',
    );
  if (!autoscaler.spec?.metrics?.some((m) => m.type === 'Resource' && m.resource?.name === 'cpu'))
    problems.push('its HorizontalPodAutoscaler does not scale on CPU');
  return problems;
}

/** Services, budgets and autoscalers that belong to no Deployment of these manifests. */
function orphanProblems(deployments: IDeployment[], podLabels: Labels[], companions: Companions): string[] {
  const problems: string[] = [];
  const selectsAnyPod = (selector: Labels | undefined) => podLabels.some((labels) => selects(selector, labels));
  for (const service of companions.services)
    if (!selectsAnyPod(service.spec?.selector))
      problems.push(`Service/${service.metadata?.name}: selects no Deployment's pods`);
  for (const budget of companions.budgets)
    if (!selectsAnyPod(budget.spec?.selector?.matchLabels))
      problems.push(`PodDisruptionBudget/${budget.metadata?.name}: selects no Deployment's pods`);
  const deploymentNames = new Set(deployments.map((d) => d.metadata?.name));
  for (const autoscaler of companions.autoscalers) {
    if (!deploymentNames.has(autoscaler.spec?.scaleTargetRef.name))
      problems.push(`HorizontalPodAutoscaler/${autoscaler.metadata?.name}: scales no Deployment of these manifests`);
  }
  return problems;
}

type Backend = NonNullable<NonNullable<IIngress['spec']>['defaultBackend']>['service'];

/** The Service port an Ingress backend names (by name or number), if these manifests have it. */
function backendPortExists(services: IService[], backend: Backend): boolean {
  const service = services.find((s) => s.metadata?.name === backend?.name);
  const wanted = backend?.port;
  return (service?.spec?.ports ?? []).some(
    (p) => p.name === wanted?.name || (wanted?.number !== undefined && p.port === wanted.number),
  );
}

/** Every Ingress backend names a Service of these manifests and one of its ports. */
function ingressProblems(ingresses: IIngress[], services: IService[]): string[] {
  const problems: string[] = [];
  for (const ingress of ingresses) {
    const paths = (ingress.spec?.rules ?? []).flatMap((rule) => rule.http?.paths ?? []);
    for (const path of paths) {
      const backend = path.backend.service;
      if (backendPortExists(services, backend)) continue;
      const port = backend?.port?.name ?? backend?.port?.number;
      problems.push(
        `Ingress/${ingress.metadata?.name}: ${path.path ?? '/'} goes to ${backend?.name}:${port}, ` +
          'which is no Service port here',
      );
    }
  }
  return problems;
}
