// The route table is a contract (libs/contracts, one file per context); this library enforces it.
export {
  ROUTES,
  SERVICE_PREFIXES,
  type HttpMethod,
  type Requirement,
  type RouteRule,
  type ServiceName,
} from '@register/contracts';
