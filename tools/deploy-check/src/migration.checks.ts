import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { ofKind, type K8sObject } from './manifests';

/**
 * ADR 0201: every Deployment migrates its database in an init container before its server starts: the service's
 * own image and settings, `main.js migrate`, as locked down as the server's container.
 */
export function migrationProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const deployment of ofKind<IDeployment>(objects, 'Deployment')) {
    const where = `Deployment/${deployment.metadata?.name}`;
    const pod = deployment.spec?.template.spec;
    const server = pod?.containers[0];
    const migrate = pod?.initContainers?.find((c) => c.name === 'migrate');
    if (!server || !migrate) {
      problems.push(`${where}: no init container "migrate"`);
      continue;
    }
    migrateContainerProblems(migrate, server, (problem) =>
      problems.push(`${where}: init container migrate: ${problem}`),
    );
  }
  return problems;
}

function migrateContainerProblems(migrate: IContainer, server: IContainer, report: (problem: string) => void): void {
  if (migrate.image !== server.image) report(`image ${migrate.image} is not the server's ${server.image}`);
  const command = [...(migrate.command ?? []), ...(migrate.args ?? [])];
  if (command.at(-1) !== 'migrate' || !command.some((part) => part.endsWith('/dist/src/main.js')))
    report(`does not run "main.js migrate" (${command.join(' ')})`);
  if (JSON.stringify(migrate.envFrom ?? []) !== JSON.stringify(server.envFrom ?? []))
    report("envFrom differs from the server's (it needs the same DATABASE_URL and settings)");
  lockedDown(migrate, report);
}

function lockedDown(container: IContainer, report: (problem: string) => void): void {
  const context = container.securityContext;
  if (context?.readOnlyRootFilesystem !== true) report('readOnlyRootFilesystem is not true');
  if (context?.allowPrivilegeEscalation !== false) report('allowPrivilegeEscalation is not false');
  if (!context?.capabilities?.drop?.includes('ALL')) report('capabilities do not drop ALL');
  for (const kind of ['requests', 'limits'] as const)
    for (const resource of ['cpu', 'memory'])
      if (container.resources?.[kind]?.[resource] === undefined) report(`no resources.${kind}.${resource}`);
}
