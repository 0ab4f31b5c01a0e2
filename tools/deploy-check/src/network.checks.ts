import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { INetworkPolicyPeer } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyPeer';
import { ofKind, type K8sObject } from './manifests';

/** Each Deployment spreads its pods over zones and over nodes. */
export function spreadProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const deployment of ofKind<IDeployment>(objects, 'Deployment')) {
    const name = deployment.metadata?.name ?? '';
    const spread = deployment.spec?.template.spec?.topologySpreadConstraints ?? [];
    for (const key of ['topology.kubernetes.io/zone', 'kubernetes.io/hostname']) {
      const c = spread.find((s) => s.topologyKey === key);
      if (!c) problems.push(`Deployment/${name}: no topology spread over ${key}`);
      else if (c.labelSelector?.matchLabels?.['app.kubernetes.io/name'] !== name)
        problems.push(`Deployment/${name}: its spread over ${key} does not select its own pods`);
    }
  }
  return problems;
}

export interface NetworkExpectation {
  /** Per service: the services allowed to call it; null: only the ingress controller's namespace (the gateway). */
  callers: Record<string, string[] | null>;
  /** Egress ports every service needs (DNS, PostgreSQL, NATS). */
  egressPorts: number[];
}

const podName = (peer: INetworkPolicyPeer) => peer.podSelector?.matchLabels?.['app.kubernetes.io/name'];

/**
 * ADR 0204: everything denied by default; each service's policy admits on its http port exactly the callers
 * expected (the gateway: only a namespace, the ingress controller's), and lets it reach the ports it needs.
 */
export function networkProblems(objects: K8sObject[], expected: NetworkExpectation): string[] {
  const policies = ofKind<INetworkPolicy>(objects, 'NetworkPolicy');
  const problems: string[] = [];
  const deny = policies.find(
    (p) =>
      Object.keys(p.spec?.podSelector ?? {}).length === 0 &&
      (['Ingress', 'Egress'] as const).every((t) => p.spec?.policyTypes?.includes(t)) &&
      !p.spec?.ingress?.length &&
      !p.spec?.egress?.length,
  );
  if (!deny) problems.push('no default-deny NetworkPolicy (all pods, Ingress and Egress, no rules)');
  for (const [service, callers] of Object.entries(expected.callers)) {
    const own = policies.find((p) => p.spec?.podSelector?.matchLabels?.['app.kubernetes.io/name'] === service);
    if (!own) {
      problems.push(`${service}: no NetworkPolicy selects its pods`);
      continue;
    }
    const http = (own.spec?.ingress ?? []).filter((r) => r.ports?.some((p) => p.port === 'http' || p.port === 8080));
    const peers = http.flatMap((r) => r.from ?? []);
    if (http.some((r) => !r.from?.length)) problems.push(`${service}: its http port is open to every source`);
    if (callers === null) {
      if (!peers.length || peers.some((p) => p.podSelector || !p.namespaceSelector))
        problems.push(`${service}: its http port is not limited to the ingress controller's namespace`);
    } else {
      const allowed = peers.map((p) => (p.namespaceSelector || p.ipBlock ? '<outside>' : podName(p))).sort();
      if (JSON.stringify(allowed) !== JSON.stringify([...callers].sort()))
        problems.push(`${service}: callers ${allowed.join(', ')}; expected ${[...callers].sort().join(', ')}`);
    }
    const egressPorts = (own.spec?.egress ?? []).flatMap((r) => (r.ports ?? []).map((p) => p.port));
    for (const port of expected.egressPorts)
      if (!egressPorts.includes(port)) problems.push(`${service}: no egress to port ${port}`);
  }
  return problems;
}
