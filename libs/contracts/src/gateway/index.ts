import { anyIdentity, needs, routeTable, type ProblemType } from '../common';

export const routes = routeTable('gateway', {
  me: { method: 'GET', path: '/api/v1/me', processing: 'none', requires: anyIdentity },
  /** Readiness, dependencies, breakers and backlogs of the whole system, for the operations console (issue 22). */
  system: {
    method: 'GET',
    path: '/api/v1/admin/system',
    processing: 'none',
    requires: needs('audit:read'),
    auditDenialAs: 'system:read',
  },
});

export const problems = {
  'request-timeout': {
    status: 408,
    title: 'Request body too slow',
    description:
      'The request body did not arrive at the minimum rate the register sets (about 1 KiB ' +
      'a second over each 10 seconds). The connection is closed; send the request again.',
  },
  'idempotency-request-in-progress': {
    status: 409,
    title: 'Request with this Idempotency-Key still running',
    description: 'A request with the same Idempotency-Key is still being processed. Retry after it has completed.',
  },
  'idempotency-key-reused': {
    status: 422,
    title: 'Idempotency-Key reused with another body',
    description: 'The Idempotency-Key was used before with a different request body. Use a new key for a new request.',
  },
} as const satisfies Record<string, ProblemType>;
