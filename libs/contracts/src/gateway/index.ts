import { anyIdentity, routeTable, type ProblemType } from '../common';

export const routes = routeTable('gateway', {
  me: { method: 'GET', path: '/api/v1/me', requires: anyIdentity },
});

export const problems = {
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
