// Every problem type the system answers with: slug, status and the text of its page at /problems/<slug>.
export interface ProblemType {
  status: number;
  title: string;
  description: string;
}

export const PROBLEM_TYPES = {
  validation: { status: 400, title: 'Request rejected', description: 'The request does not satisfy the rules of this operation. The `errors` member names each field, a stable code and a detail.' },
  'scholing-incompleet': { status: 400, title: 'Scholing answer incomplete', description: 'For an intake with fewer worked hours than the scholing threshold, `aanvullendeScholing` is required; `scholingPunten` belongs only to a followed scholing and is then at least 1.' },
  unauthenticated: { status: 401, title: 'Not authenticated', description: 'The request carries no identity that the service accepts.' },
  forbidden: { status: 403, title: 'Not allowed', description: 'The caller is known but lacks the capability or decision this operation needs.' },
  'step-up-required': { status: 403, title: 'Step-up confirmation required', description: 'Revealing the register number needs the header `X-Step-Up: true`, sent after an explicit confirmation of the user.' },
  conflict: { status: 409, title: 'Conflict with the current state', description: 'The resource is in a state that does not allow this operation.' },
  'idempotency-request-in-progress': { status: 409, title: 'Request with this Idempotency-Key still running', description: 'A request with the same Idempotency-Key is still being processed. Retry after it has completed.' },
  'payload-too-large': { status: 413, title: 'Payload too large', description: 'The request body or uploaded file is larger than allowed.' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type', description: 'The content type (detected from the bytes) is not accepted here.' },
  'invalid-phone-number': { status: 422, title: 'Invalid phone number', description: 'After removing spaces, dashes, dots and brackets, and turning +31 or 0031 into 0, the number must be 0 followed by nine digits.' },
  'links-rejected': { status: 422, title: 'Documents cannot be linked', description: 'Internal API: not every document can be linked to the application (unknown, another owner\'s, another category, or linked elsewhere). Nothing was linked; `errors` names each document.' },
  'idempotency-key-reused': { status: 422, title: 'Idempotency-Key reused with another body', description: 'The Idempotency-Key was used before with a different request body. Use a new key for a new request.' },
  internal: { status: 500, title: 'Internal error', description: 'Something went wrong on our side. The correlation id identifies the request in our logs.' },
  unavailable: { status: 503, title: 'Service unavailable', description: 'A service this request needs cannot be reached right now. Retry later.' },
} as const satisfies Record<string, ProblemType>;

export type ProblemSlug = keyof typeof PROBLEM_TYPES;

export function isProblemSlug(value: string): value is ProblemSlug {
  return Object.prototype.hasOwnProperty.call(PROBLEM_TYPES, value);
}
