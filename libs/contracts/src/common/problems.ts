/** A problem type: its slug is the key, `/problems/<slug>` its page. Only libs/problem turns it into HTTP. */
export interface ProblemType {
  status: number;
  title: string;
  description: string;
}

/** Problem types every context answers with (ADR 0004). */
export const COMMON_PROBLEMS = {
  validation: {
    status: 400,
    title: 'Request rejected',
    description:
      'The request does not satisfy the rules of this operation. ' +
      'The `errors` member names each field, a stable code and a detail.',
  },
  unauthenticated: {
    status: 401,
    title: 'Not authenticated',
    description: 'The request carries no identity that the service accepts.',
  },
  forbidden: {
    status: 403,
    title: 'Not allowed',
    description: 'The caller is known but lacks the capability or decision this operation needs.',
  },
  conflict: {
    status: 409,
    title: 'Conflict with the current state',
    description: 'The resource is in a state that does not allow this operation.',
  },
  'payload-too-large': {
    status: 413,
    title: 'Payload too large',
    description: 'The request body or uploaded file is larger than allowed.',
  },
  'unsupported-media-type': {
    status: 415,
    title: 'Unsupported media type',
    description: 'The content type (detected from the bytes) is not accepted here.',
  },
  internal: {
    status: 500,
    title: 'Internal error',
    description: 'Something went wrong on our side. The correlation id identifies the request in our logs.',
  },
  unavailable: {
    status: 503,
    title: 'Service unavailable',
    description: 'A service this request needs cannot be reached right now. Retry later.',
  },
} as const satisfies Record<string, ProblemType>;
