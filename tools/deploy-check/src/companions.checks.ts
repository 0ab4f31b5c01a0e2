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

/**
 * Each Deployment has a Service on its http port, a CPU HorizontalPodAutoscaler of at least two replicas and a
 * PodDisruptionBudget, all selecting its pods; and nothing of those three points at no Deployment.
 */
export function companionProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const deployments = ofKind<IDeployment>(objects, 'Deployment');
  const services = ofKind<IService>(objects, 'Service');
  const autoscalers = ofKind<IHorizontalPodAutoscaler>(objects, 'HorizontalPodAutoscaler');
  const budgets = ofKind<IPodDisruptionBudget>(objects, 'PodDisruptionBudget');
  const podLabels = deployments.map((d) => d.spec?.template.metadata?.labels ?? {});

  for (const [index, deployment] of deployments.entries()) {
    const name = deployment.metadata?.name ?? '';
    const labels = podLabels[index] ?? {};
    const report = (problem: string) => problems.push(`Deployment/${name}: ${problem}`);
    if (!selects(deployment.spec?.selector.matchLabels, labels))
      report('its selector does not select its own pod template');
    if (!services.some((s) => selects(s.spec?.selector, labels) && s.spec?.ports?.some((p) => p.targetPort === 'http')))
      report('no Service selects its pods on port http');
    const autoscaler = autoscalers.find(
      (h) => h.spec?.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === name,
    );
    if (!autoscaler) report('no HorizontalPodAutoscaler');
    else {
      if ((autoscaler.spec?.minReplicas ?? 1) < 2)
        report(
          'its HorizontalPodAutoscaler allows fewer than 2 replicas (a disruption budget then blocks drains or protects nothing)',
        );
      if (!autoscaler.spec?.metrics?.some((m) => m.type === 'Resource' && m.resource?.name === 'cpu'))
        report('its HorizontalPodAutoscaler does not scale on CPU');
    }
    if (!budgets.some((b) => selects(b.spec?.selector?.matchLabels, labels)))
      report('no PodDisruptionBudget selects its pods');
  }

  const selectsAnyPod = (selector: Labels | undefined) => podLabels.some((labels) => selects(selector, labels));
  for (const service of services)
    if (!selectsAnyPod(service.spec?.selector))
      problems.push(`Service/${service.metadata?.name}: selects no Deployment's pods`);
  for (const budget of budgets)
    if (!selectsAnyPod(budget.spec?.selector?.matchLabels))
      problems.push(`PodDisruptionBudget/${budget.metadata?.name}: selects no Deployment's pods`);
  const deploymentNames = new Set(deployments.map((d) => d.metadata?.name));
  for (const autoscaler of autoscalers) {
    if (!deploymentNames.has(autoscaler.spec?.scaleTargetRef.name))
      problems.push(`HorizontalPodAutoscaler/${autoscaler.metadata?.name}: scales no Deployment of these manifests`);
  }
  problems.push(...ingressProblems(ofKind<IIngress>(objects, 'Ingress'), services));
  return problems;
}

/** Every Ingress backend names a Service of these manifests and one of its ports. */
function ingressProblems(ingresses: IIngress[], services: IService[]): string[] {
  const problems: string[] = [];
  for (const ingress of ingresses) {
    for (const rule of ingress.spec?.rules ?? []) {
      for (const path of rule.http?.paths ?? []) {
        const backend = path.backend.service;
        const service = services.find((s) => s.metadata?.name === backend?.name);
        const port = service?.spec?.ports?.find(
          (p) =>
            p.name === backend?.port?.name || (backend?.port?.number !== undefined && p.port === backend.port.number),
        );
        if (!port)
          problems.push(
            `Ingress/${ingress.metadata?.name}: ${path.path ?? '/'} goes to ${backend?.name}:${backend?.port?.name ?? backend?.port?.number}, which is no Service port here`,
          );
      }
    }
  }
  return problems;
}
