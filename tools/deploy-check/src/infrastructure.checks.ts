import type { K8sObject } from './manifests';

type Values = Record<string, unknown>;

const at = (root: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((node, key) => (node as Values | undefined)?.[key], root);

/**
 * ADR 0204: the NATS Helm chart's values as the register expects its broker: a cluster of at least as many nodes
 * as the stream has replicas, JetStream on persistent file storage, nodes spread over zones and hosts.
 */
export function natsValuesProblems(values: Values, eventsReplicas: number): string[] {
  const problems: string[] = [];
  const replicas = Number(at(values, 'config.cluster.replicas'));
  if (at(values, 'config.cluster.enabled') !== true) problems.push('config.cluster.enabled is not true');
  if (!(replicas >= 3)) problems.push('config.cluster.replicas is below 3');
  if (!(eventsReplicas <= replicas)) problems.push(`EVENTS_REPLICAS ${eventsReplicas} exceeds the ${replicas} nodes`);
  if (eventsReplicas < 3) problems.push(`EVENTS_REPLICAS ${eventsReplicas}: one node lost would stop the stream`);
  if (at(values, 'config.jetstream.enabled') !== true) problems.push('config.jetstream.enabled is not true');
  if (at(values, 'config.jetstream.fileStore.pvc.enabled') !== true)
    problems.push('JetStream file storage has no persistent volume');
  const spread = at(values, 'podTemplate.topologySpreadConstraints') as Values | undefined;
  for (const key of ['topology.kubernetes.io/zone', 'kubernetes.io/hostname'])
    if (!spread || !(key in spread)) problems.push(`no topology spread over ${key}`);
  return problems;
}

interface Cnpg extends K8sObject {
  spec?: Values;
}

/**
 * The CloudNativePG example: a Cluster of three instances over zones with a synchronous standby, a managed role
 * and a Database per service, and every service's DATABASE_URL naming its role and database on the primary.
 */
export function postgresProblems(objects: K8sObject[], databaseUrls: Record<string, string>): string[] {
  const problems: string[] = [];
  const clusters = objects.filter((o) => o.apiVersion === 'postgresql.cnpg.io/v1' && o.kind === 'Cluster') as Cnpg[];
  const cluster = clusters[0];
  if (clusters.length !== 1 || !cluster) return ['not exactly one CloudNativePG Cluster'];
  if (!(Number(at(cluster.spec, 'instances')) >= 3)) problems.push('the Cluster has fewer than 3 instances');
  if (!(Number(at(cluster.spec, 'minSyncReplicas')) >= 1)) problems.push('the Cluster has no synchronous standby');
  if (at(cluster.spec, 'affinity.topologyKey') !== 'topology.kubernetes.io/zone')
    problems.push('the Cluster does not spread its instances over zones');
  const roles = ((at(cluster.spec, 'managed.roles') as Array<{ name: string; login?: boolean }>) ?? []).filter(
    (r) => r.login,
  );
  const databases = objects.filter((o) => o.kind === 'Database') as Cnpg[];
  const primary = `${cluster.metadata.name}-rw.${cluster.metadata.namespace}.svc.cluster.local`;
  for (const [service, raw] of Object.entries(databaseUrls)) {
    const url = new URL(raw);
    const name = url.pathname.slice(1);
    const database = databases.find((d) => at(d.spec, 'name') === name);
    if (url.hostname !== primary) problems.push(`${service}: DATABASE_URL is not on ${primary}`);
    if (!database) problems.push(`${service}: no Database ${name}`);
    else if (at(database.spec, 'owner') !== url.username || at(database.spec, 'cluster.name') !== cluster.metadata.name)
      problems.push(`${service}: Database ${name} is not owned by ${url.username} on the Cluster`);
    if (!roles.some((r) => r.name === url.username)) problems.push(`${service}: no login role ${url.username}`);
  }
  return problems;
}
