export { describeObject, type K8sObject, ofKind, parseManifests, renderKustomization } from './manifests';
export { schemaProblems } from './schemas';
export { workloadProblems } from './workload.checks';
export { companionProblems } from './companions.checks';
export { configProblems } from './config.checks';
export { type ExpectedVariable, variableProblems } from './environment.checks';
export { migrationProblems } from './migration.checks';
export { networkProblems, spreadProblems, type NetworkExpectation } from './network.checks';
export { natsValuesProblems, postgresProblems } from './infrastructure.checks';
