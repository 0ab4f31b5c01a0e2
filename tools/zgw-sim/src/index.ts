export { startZgwSimulator, type SimFaults, type ZgwSimulator, type ZgwSimulatorOptions } from './simulator';
export { loadContracts, type Contract, type ContractError, type Contracts } from './contract/contracts';
export { SEED_UUIDS } from './catalogi/catalogi.seed';
export { faultSpecSchema, type Fault, type FaultSpec, type HeldRequest } from './faults/faults';
export { passesElevenTest, SIMULATOR_RSIN } from './state/rsin';
export type { Counters, SimStateView, ZaakView } from './state/state-view';
export type { NotificationLogEntry, RequestLogEntry } from './state/store';
