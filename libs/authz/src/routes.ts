import type { Capability } from './capabilities';

export type ServiceName = 'gateway' | 'applications' | 'documents' | 'letters' | 'reference' | 'audit';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type Requirement =
  /** Any authenticated identity (practitioner or case handler). */
  | { kind: 'identity' }
  /** Authenticated and holding at least one of the capabilities. */
  | { kind: 'capability'; anyOf: readonly Capability[] }
  /** Guarded by something other than a user identity (the notification webhook's shared secret). */
  | { kind: 'shared-secret' };

export interface RouteRule {
  method: HttpMethod;
  /** Express path syntax; the services mount exactly this path. */
  path: string;
  service: ServiceName;
  requires: Requirement;
  /** Audit action written for a denial of this route (spec, Authentication 6). */
  auditDenialAs?: string;
}

const own = { kind: 'capability', anyOf: ['applications:own'] } as const;
const needs = (...anyOf: Capability[]): Requirement => ({ kind: 'capability', anyOf });

/**
 * Every public route of the system and what it requires. The gateway enforces it before proxying, each
 * service enforces it again on mount (a route missing here cannot be mounted), and the authorization
 * matrix test is generated from it.
 */
export const ROUTES: readonly RouteRule[] = [
  { method: 'GET', path: '/api/v1/me', service: 'gateway', requires: { kind: 'identity' } },

  { method: 'GET', path: '/api/v1/flags', service: 'reference', requires: { kind: 'identity' } },
  { method: 'PUT', path: '/api/v1/admin/flags/:key', service: 'reference', requires: needs('flags:write') },
  { method: 'GET', path: '/api/v1/stamdata', service: 'reference', requires: needs('stamdata:read') },
  { method: 'GET', path: '/api/v1/stamdata/:table', service: 'reference', requires: needs('stamdata:read') },

  { method: 'GET', path: '/api/v1/admin/audit', service: 'audit', requires: needs('audit:read') },

  { method: 'GET', path: '/api/v1/uploads/categories', service: 'documents', requires: own },
  { method: 'POST', path: '/api/v1/uploads', service: 'documents', requires: own },
  { method: 'GET', path: '/api/v1/uploads/status', service: 'documents', requires: own },
  { method: 'GET', path: '/api/v1/uploads/:documentId/content', service: 'documents', requires: needs('applications:own', 'CanBeoordelen') },
  { method: 'DELETE', path: '/api/v1/uploads/:documentId', service: 'documents', requires: own },
  { method: 'DELETE', path: '/api/v1/admin/uploads/:documentId', service: 'documents', requires: needs('uploads:admin-delete') },

  { method: 'GET', path: '/api/v1/dashboard-view', service: 'applications', requires: own },
  { method: 'GET', path: '/api/v1/notes', service: 'applications', requires: own },
  { method: 'GET', path: '/api/v1/population/address', service: 'applications', requires: own },
  { method: 'GET', path: '/api/v1/education/diplomas', service: 'applications', requires: own },
  { method: 'GET', path: '/api/v1/intake/policy', service: 'applications', requires: own },
  { method: 'POST', path: '/api/v1/change-requests', service: 'applications', requires: own },
  { method: 'GET', path: '/api/v1/applications', service: 'applications', requires: own },
  { method: 'POST', path: '/api/v1/applications', service: 'applications', requires: own },
  { method: 'GET', path: '/api/v1/applications/:id', service: 'applications', requires: own },
  { method: 'PUT', path: '/api/v1/applications/:id', service: 'applications', requires: own },
  { method: 'DELETE', path: '/api/v1/applications/:id', service: 'applications', requires: own },
  { method: 'POST', path: '/api/v1/applications/:id/submit', service: 'applications', requires: own },
  { method: 'GET', path: '/api/v1/werkvoorraad', service: 'applications', requires: needs('CanBeoordelen') },
  { method: 'GET', path: '/api/v1/beoordeling/:id', service: 'applications', requires: needs('CanBeoordelen') },
  { method: 'POST', path: '/api/v1/beoordeling/:id/besluit', service: 'applications', requires: needs('CanBeoordelen') },
  { method: 'GET', path: '/api/v1/admin/cases', service: 'applications', requires: needs('cases:admin') },
  { method: 'DELETE', path: '/api/v1/admin/cases/:id', service: 'applications', requires: needs('cases:admin') },
];

/** Path prefixes each service owns (architecture.md); the gateway proxies by them. */
export const SERVICE_PREFIXES: Readonly<Record<Exclude<ServiceName, 'gateway'>, readonly string[]>> = {
  applications: ['/api/v1/applications', '/api/v1/change-requests', '/api/v1/dashboard-view', '/api/v1/notes', '/api/v1/population', '/api/v1/education', '/api/v1/intake', '/api/v1/werkvoorraad', '/api/v1/beoordeling', '/api/v1/admin/cases', '/api/v1/notificaties'],
  documents: ['/api/v1/uploads', '/api/v1/admin/uploads'],
  letters: ['/api/v1/brief', '/api/v1/admin/org-templates', '/api/v1/admin/org-template'],
  reference: ['/api/v1/stamdata', '/api/v1/flags', '/api/v1/admin/flags'],
  audit: ['/api/v1/admin/audit'],
};
