import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import { type K8sObject, ofKind } from './manifests';

/** What every service's pod must be: probes, restricted security, resources, metrics, a matched shutdown drain. */
export function workloadProblems(objects: K8sObject[], options: { requireImageTags: boolean }): string[] {
  const configMaps = new Map(ofKind<IConfigMap>(objects, 'ConfigMap').map((c) => [c.metadata?.name ?? '', c]));
  const problems: string[] = [];
  for (const deployment of ofKind<IDeployment>(objects, 'Deployment')) {
    const where = `Deployment/${deployment.metadata?.name}`;
    const template = deployment.spec?.template;
    const pod = template?.spec;
    if (!pod) {
      problems.push(`${where}: no pod template`);
      continue;
    }
    const report = (problem: string) => problems.push(`${where}: ${problem}`);
    podSecurity(pod, report);
    const annotations = template.metadata?.annotations ?? {};
    if (annotations['prometheus.io/scrape'] !== 'true') report('pod annotation prometheus.io/scrape is not "true"');
    for (const container of pod.containers) {
      const inContainer = (problem: string) => report(`container ${container.name}: ${problem}`);
      containerProblems(container, pod, inContainer, options);
      const metrics = container.ports?.find((p) => p.name === 'metrics');
      if (metrics && annotations['prometheus.io/port'] !== String(metrics.containerPort))
        inContainer('pod annotation prometheus.io/port does not name the metrics port');
      const env = environment(container, configMaps);
      drainProblems(container, pod, env, inContainer);
      spoolProblems(container, pod, env, inContainer);
    }
  }
  return problems;
}

function podSecurity(pod: IPodSpec, report: (problem: string) => void): void {
  const context = pod.securityContext;
  if (context?.runAsNonRoot !== true) report('pod securityContext.runAsNonRoot is not true');
  if (context?.runAsUser === undefined || context.runAsUser === 0)
    report('pod securityContext.runAsUser is not a non-root uid');
  if (context?.fsGroup === undefined) report('pod securityContext.fsGroup is not set');
  if (context?.seccompProfile?.type !== 'RuntimeDefault') report('pod seccompProfile is not RuntimeDefault');
}

function containerProblems(
  container: IContainer,
  pod: IPodSpec,
  report: (problem: string) => void,
  options: { requireImageTags: boolean },
): void {
  const probe = (name: 'startupProbe' | 'livenessProbe' | 'readinessProbe', path: string) => {
    const get = container[name]?.httpGet;
    if (!get) report(`no ${name}`);
    else if (get.path !== path || get.port !== 'http') report(`${name} is not GET ${path} on port http`);
  };
  probe('startupProbe', '/health');
  probe('livenessProbe', '/health');
  probe('readinessProbe', '/health/ready');
  const port = (name: string, number: number) => {
    if (!container.ports?.some((p) => p.name === name && p.containerPort === number))
      report(`no container port ${name} ${number}`);
  };
  port('http', 8080);
  port('metrics', 9464);
  containerSecurity(container, pod, report);
  imageProblems(container.image, options, report);
}

/** Locked down: read-only root (with an emptyDir /tmp), no escalation, no capabilities, not root, bounded. */
function containerSecurity(container: IContainer, pod: IPodSpec, report: (problem: string) => void): void {
  securityContextProblems(container.securityContext, report);
  resourceAndTmpProblems(container, pod, report);
}

function securityContextProblems(context: IContainer['securityContext'], report: (problem: string) => void): void {
  if (context?.readOnlyRootFilesystem !== true) report('readOnlyRootFilesystem is not true');
  if (context?.allowPrivilegeEscalation !== false) report('allowPrivilegeEscalation is not false');
  if (!context?.capabilities?.drop?.includes('ALL')) report('capabilities do not drop ALL');
  if (context?.runAsNonRoot === false || context?.runAsUser === 0) report('runs as root');
}

/** Requests and limits for CPU and memory, and a writable /tmp on an emptyDir. */
function resourceAndTmpProblems(container: IContainer, pod: IPodSpec, report: (problem: string) => void): void {
  const { requests, limits } = container.resources ?? {};
  for (const [kind, values] of [
    ['requests', requests],
    ['limits', limits],
  ] as const) {
    for (const resource of ['cpu', 'memory'])
      if (values?.[resource] === undefined) report(`no resources.${kind}.${resource}`);
  }
  const tmp = container.volumeMounts?.find((m) => m.mountPath === '/tmp');
  if (!tmp || !pod.volumes?.some((v) => v.name === tmp.name && v.emptyDir))
    report('/tmp is not an emptyDir (the root filesystem is read-only)');
}

function imageProblems(
  image: string | undefined,
  options: { requireImageTags: boolean },
  report: (problem: string) => void,
): void {
  const tagged = /(:[\w][\w.-]*|@sha256:[0-9a-f]{64})$/.test(image?.split('/').pop() ?? '');
  if (options.requireImageTags && !tagged) report(`image ${image} has no tag or digest`);
  if (image?.endsWith(':latest')) report(`image ${image} is tagged latest`);
}

/**
 * The preStop sleep keeps a terminating pod serving while endpoints and ingress controllers catch up;
 * SHUTDOWN_DRAIN_MS must equal it, and the grace period must cover sleep + drain + the kit's forced-exit timer.
 */
function drainProblems(
  container: IContainer,
  pod: IPodSpec,
  env: Record<string, string>,
  report: (problem: string) => void,
): void {
  const preStop = container.lifecycle?.preStop;
  if (!preStop) {
    report('no preStop hook');
    return;
  }
  const seconds = sleepSeconds(preStop);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    report('preStop is not a sleep (exec ["sleep", "N"] or the sleep action)');
    return;
  }
  const drainMs = Number(env.SHUTDOWN_DRAIN_MS);
  if (env.SHUTDOWN_DRAIN_MS === undefined) report('SHUTDOWN_DRAIN_MS is not set');
  else if (drainMs !== seconds * 1000)
    report(`SHUTDOWN_DRAIN_MS ${env.SHUTDOWN_DRAIN_MS} does not match the preStop sleep of ${seconds} s`);
  gracePeriodCovers(pod, seconds, Number.isFinite(drainMs) ? drainMs : 0, env, report);
}

/** A Kubernetes quantity's suffix in MiB ('' is bytes). */
const MEBIBYTES: Record<string, number> = {
  '': 1 / 2 ** 20,
  Ki: 1 / 1024,
  Mi: 1,
  Gi: 1024,
  k: 1e3 / 2 ** 20,
  M: 1e6 / 2 ** 20,
  G: 1e9 / 2 ** 20,
};

/**
 * LDV_SPOOL_DIR is the mount of an emptyDir in memory (a read appends to it before its answer, and must not wait on a
 * disk: ADR 0270), sized above LDV_SPOOL_MAX_MB (default 8), beyond which the spool refuses.
 */
function spoolProblems(
  container: IContainer,
  pod: IPodSpec,
  env: Record<string, string>,
  report: (problem: string) => void,
): void {
  const dir = env.LDV_SPOOL_DIR;
  if (!dir) return;
  const mount = container.volumeMounts?.find((m) => m.mountPath === dir);
  const volume = pod.volumes?.find((v) => v.name === mount?.name);
  if (!volume?.emptyDir) {
    report(`LDV_SPOOL_DIR ${dir} is not the mount of an emptyDir`);
    return;
  }
  if (volume.emptyDir.medium !== 'Memory') report(`the emptyDir at LDV_SPOOL_DIR ${dir} is not medium: Memory`);
  const size = /^(\d+)(Ki|Mi|Gi|k|M|G|)$/.exec(String(volume.emptyDir.sizeLimit ?? ''));
  const maxMb = Number(env.LDV_SPOOL_MAX_MB ?? 8);
  if (!size || Number(size[1]) * MEBIBYTES[size[2]!]! <= maxMb)
    report(`the emptyDir at LDV_SPOOL_DIR ${dir} has no sizeLimit above LDV_SPOOL_MAX_MB (${maxMb} MiB)`);
}

type PreStop = NonNullable<NonNullable<IContainer['lifecycle']>['preStop']>;

/** The preStop's sleep in seconds (the sleep action, or exec ["sleep", "N"]); NaN when it is no sleep. */
function sleepSeconds(preStop: PreStop): number {
  const command = preStop.exec?.command;
  return preStop.sleep?.seconds ?? (command?.length === 2 && command[0] === 'sleep' ? Number(command[1]) : NaN);
}

/** The grace period covers the preStop sleep, the drain and the kit's forced-exit timer. */
function gracePeriodCovers(
  pod: IPodSpec,
  sleep: number,
  drainMs: number,
  env: Record<string, string>,
  report: (problem: string) => void,
): void {
  const timeoutMs = Number(env.SHUTDOWN_TIMEOUT_MS ?? 10_000);
  const grace = pod.terminationGracePeriodSeconds ?? 30;
  const needed = sleep + (drainMs + timeoutMs) / 1000;
  if (!(grace > needed))
    report(
      `terminationGracePeriodSeconds ${grace} is not above ` +
        `preStop + SHUTDOWN_DRAIN_MS + SHUTDOWN_TIMEOUT_MS (${needed} s)`,
    );
}

/** The container's environment as literal values and ConfigMaps give it (Secrets are not read here). */
function environment(container: IContainer, configMaps: Map<string, IConfigMap>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    const data = source.configMapRef ? configMaps.get(source.configMapRef.name ?? '')?.data : undefined;
    for (const [key, value] of Object.entries(data ?? {})) env[`${source.prefix ?? ''}${key}`] = value;
  }
  for (const variable of container.env ?? []) if (variable.value !== undefined) env[variable.name] = variable.value;
  return env;
}
