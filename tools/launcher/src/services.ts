// The six services, their default ports and the order they start in (shared by the launcher's modes).
export const SERVICES = ['reference', 'audit', 'documents', 'applications', 'letters', 'gateway'] as const;
export type Service = (typeof SERVICES)[number];

export const DEFAULT_PORTS: Record<Service, number> = {
  gateway: 8080,
  applications: 8081,
  documents: 8082,
  letters: 8083,
  reference: 8084,
  audit: 8085,
};

/** The start order: the audit consumer attaches before any producer publishes, the gateway comes last. */
/**
 * Consumers before producers: in the single-process mode an event reaches only the durable consumers
 * already declared (audit: every audit event; documents: the applications' deletions).
 */
export const START_ORDER: ReadonlyArray<ReadonlyArray<Service>> = [
  ['audit'],
  ['reference'],
  ['documents'],
  ['applications', 'letters'],
  ['gateway'],
];
