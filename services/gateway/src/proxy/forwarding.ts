import type { IncomingHttpHeaders } from 'node:http';
import { INTERNAL_IDENTITY_HEADER } from '@register/authz';
import { FOREIGN_TRACEPARENT_HEADER, traceHeaders } from '@register/service-kit';

const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** Headers of the client that reach a service; identity and correlation headers are the gateway's own. */
export const FORWARDED_HEADERS = [
  'accept',
  'accept-language',
  'content-type',
  'content-length',
  'transfer-encoding',
  'idempotency-key',
  'user-agent',
  'x-step-up',
  'if-match',
  'if-none-match',
  'range',
] as const;

export function forwardedHeaders(
  incoming: IncomingHttpHeaders,
  input: {
    /** The caller's signed internal identity (signed-identities.ts). */
    identityToken: string;
    correlationId: string;
    passAuthorization: boolean;
  },
): IncomingHttpHeaders {
  const out: Record<string, string | string[] | undefined> = {};
  for (const name of FORWARDED_HEADERS) if (incoming[name] !== undefined) out[name] = incoming[name];
  if (input.passAuthorization && incoming.authorization !== undefined) out.authorization = incoming.authorization;
  out['x-correlation-id'] = input.correlationId;
  // W3C Trace Context: the client's trace (or the one the gateway started), with the gateway's span as parent.
  Object.assign(out, traceHeaders());
  // The calling application's own operation, for the processing log's `dpl.core.foreign_operation.*` (ADR 0182).
  const foreign = incoming.traceparent;
  if (typeof foreign === 'string' && TRACEPARENT.test(foreign)) out[FOREIGN_TRACEPARENT_HEADER] = foreign;
  out[INTERNAL_IDENTITY_HEADER] = input.identityToken;
  return out;
}
