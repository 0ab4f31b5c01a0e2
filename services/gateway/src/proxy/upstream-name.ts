import type { ServiceName } from '@register/authz';

/** The services behind the gateway. */
export type UpstreamName = Exclude<ServiceName, 'gateway'>;
