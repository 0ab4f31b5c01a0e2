import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { ofKind, type K8sObject } from './manifests';

/** deploy/k8s/sizing.json: what was measured of each service, from which its pods' resources follow. */
export interface Sizing {
  /** The share of its CPU request at which the autoscaler adds a pod. */
  autoscalerTarget: number;
  services: Record<string, ServiceSizing>;
}

export interface ServiceSizing {
  /** The pods that share the load (the autoscaler's minimum). */
  replicas: number;
  /** CPU the service spends with no request (job loops, probes, metrics). */
  idleMillicores: number;
  /** The work a burst brings, over all pods: how often, and the CPU each costs. */
  burst: Array<{ what: string; perSecond: number; cpuMs: number }>;
  residentMiB: number;
  peakResidentMiB: number;
}

export interface Resources {
  requests: { cpu: string; memory: string };
  limits: { cpu: string; memory: string };
}

const ceilTo = (step: number, value: number) => Math.ceil(value / step) * step;

/**
 * A pod's resources from its service's measurements (docs/capacity.md shows the arithmetic):
 * - CPU request: idle plus the pod's share of the burst, over the autoscaler's target, up to the next 50m;
 * - CPU limit: four times the request up to the next 250m, at least 500m, so a PDF or an upload is not throttled;
 * - memory request: the resident size plus 10 %, up to the next 64 MiB;
 * - memory limit: twice the peak resident size, up to the next 128 MiB.
 */
export function resourcesOf(service: ServiceSizing, autoscalerTarget: number): Resources {
  const burst = service.burst.reduce((sum, work) => sum + work.perSecond * work.cpuMs, 0) / service.replicas;
  const cpu = ceilTo(50, (service.idleMillicores + burst) / autoscalerTarget);
  return {
    requests: { cpu: `${cpu}m`, memory: `${ceilTo(64, service.residentMiB * 1.1)}Mi` },
    limits: {
      cpu: `${Math.max(500, ceilTo(250, 4 * cpu))}m`,
      memory: `${ceilTo(128, 2 * service.peakResidentMiB)}Mi`,
    },
  };
}

/** Kubernetes spells 1000m as '1' and 2000m as '2': compare in one spelling. */
const millicores = (cpu: string | number | undefined) =>
  typeof cpu === 'string' && cpu.endsWith('m') ? Number(cpu.slice(0, -1)) : Number(cpu) * 1000;

/** Every Deployment's server container requests and is limited to what its service's measurements give. */
export function sizingProblems(objects: K8sObject[], sizing: Sizing): string[] {
  const problems: string[] = [];
  for (const deployment of ofKind<IDeployment>(objects, 'Deployment')) {
    const name = deployment.metadata?.name ?? '';
    const where = `Deployment/${name}`;
    const measured = sizing.services[name];
    if (!measured) {
      problems.push(`${where}: no measurements in deploy/k8s/sizing.json`);
      continue;
    }
    const expected = resourcesOf(measured, sizing.autoscalerTarget);
    const actual = deployment.spec?.template.spec?.containers[0]?.resources;
    for (const kind of ['requests', 'limits'] as const) {
      const want = expected[kind];
      const got = actual?.[kind] ?? {};
      if (millicores(got['cpu']) !== millicores(want.cpu))
        problems.push(`${where}: resources.${kind}.cpu is ${got['cpu']}, the measurements give ${want.cpu}`);
      if (String(got['memory']) !== want.memory)
        problems.push(`${where}: resources.${kind}.memory is ${got['memory']}, the measurements give ${want.memory}`);
    }
  }
  return problems;
}
