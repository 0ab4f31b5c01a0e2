import { COMMON_PROBLEMS, type RouteRule, type ServiceName } from './common';
import * as applications from './applications';
import * as audit from './audit';
import * as documents from './documents';
import * as gateway from './gateway';
import * as letters from './letters';
import * as reference from './reference';

export * from './common';
export { applications, audit, documents, gateway, letters, reference };

/**
 * Every public route of the system and what it requires, assembled from the contexts' own tables. The
 * gateway enforces it, each service mounts its part, and the authorization matrix test checks it.
 */
export const ROUTES: readonly RouteRule[] = [gateway, reference, audit, documents, applications, letters].flatMap((c) =>
  Object.values<RouteRule>(c.routes),
);

/** Every problem type the system answers with. */
export const PROBLEM_TYPES = {
  ...COMMON_PROBLEMS,
  ...gateway.problems,
  ...applications.problems,
  ...documents.problems,
  ...letters.problems,
} as const;
export type ProblemSlug = keyof typeof PROBLEM_TYPES;

/** Path prefixes each service owns (ADR 0020); the gateway proxies by them. */
export const SERVICE_PREFIXES: Readonly<Record<Exclude<ServiceName, 'gateway'>, readonly string[]>> = {
  applications: [
    '/api/v1/applications',
    '/api/v1/change-requests',
    '/api/v1/dashboard-view',
    '/api/v1/notes',
    '/api/v1/population',
    '/api/v1/education',
    '/api/v1/intake',
    '/api/v1/werkvoorraad',
    '/api/v1/beoordeling',
    '/api/v1/admin/cases',
    '/api/v1/admin/case-mirror',
    '/api/v1/notificaties',
  ],
  documents: ['/api/v1/uploads', '/api/v1/admin/uploads'],
  letters: ['/api/v1/brief', '/api/v1/admin/org-templates', '/api/v1/admin/org-template'],
  reference: ['/api/v1/stamdata', '/api/v1/flags', '/api/v1/admin/flags'],
  audit: [
    '/api/v1/admin/audit',
    '/api/v1/admin/dead-letters',
    '/api/v1/verwerkingsactiviteiten',
    '/api/v1/me/verwerkingen',
  ],
};
