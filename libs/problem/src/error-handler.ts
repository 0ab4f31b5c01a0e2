import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { ZodError } from 'zod';
import { DomainError, NotFoundError, type FieldError } from './errors';
import { sendNotFound, sendProblem } from './problem';

interface Logger {
  error(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export function zodIssuesToFieldErrors(error: ZodError, prefix = ''): FieldError[] {
  return error.issues.map((issue) => ({
    field: [prefix, ...issue.path.map(String)].filter((p) => p !== '').join('.'),
    code: issue.code,
    detail: issue.message,
  }));
}

function statusOf(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const s = (err as { status?: unknown; statusCode?: unknown }).status ?? (err as { statusCode?: unknown }).statusCode;
  return typeof s === 'number' ? s : undefined;
}

const MALFORMED_FORM =
  /^(Multipart: Boundary not found|Unexpected end of form|Malformed part header|Malformed urlencoded form|Unsupported content type)/;

/**
 * A body or URL the parsers could not read (body-parser, multer, busboy, a malformed escape) is the client's:
 * answered with its 4xx problem, never a 500. False when the error is none of these.
 */
function answeredAsUnreadable(err: unknown, req: Request, res: Response): boolean {
  const status = statusOf(err);
  const type = (err as { type?: unknown } | null)?.type;
  if (status === 413 || type === 'entity.too.large') {
    sendProblem(req, res, 'payload-too-large', 'The request body is too large.');
  } else if (type === 'entity.parse.failed') {
    sendProblem(req, res, 'validation', 'The request body is not valid JSON.', [
      { field: '', code: 'invalid_json', detail: 'The body is not valid JSON.' },
    ]);
  } else if (status === 415 || type === 'charset.unsupported' || type === 'encoding.unsupported') {
    sendProblem(req, res, 'unsupported-media-type', 'The request body has an unsupported encoding or content type.');
  } else if (err instanceof Error && MALFORMED_FORM.test(err.message)) {
    // busboy (under multer) refuses a malformed form with a plain Error: no or another boundary, a truncated
    // body, a part without headers. The form is the client's; never a 500 (ADR 0050).
    sendProblem(req, res, 'validation', 'The multipart form is malformed.', [
      { field: '', code: 'malformed_multipart', detail: err.message },
    ]);
  } else if (status !== undefined && status >= 400 && status < 500) {
    // A parser's own refusal (a URIError from a malformed escape in a path parameter, busboy's 'Unexpected end
    // of form' or 'Malformed part header', body-parser's errors) carries a 4xx: it is the client's, never a 500.
    const detail = 'The request could not be read as sent.';
    sendProblem(req, res, 'validation', detail, [{ field: '', code: 'malformed_request', detail }]);
  } else {
    return false;
  }
  return true;
}

/** Socket errors of a dependency that went away or is not there yet (a database restarting, say). */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);

/**
 * The database was lost or not reachable for a moment: a connection error (SQLSTATE class 08), the server
 * shutting down or starting (class 57: admin or crash shutdown, cannot connect now), the pool's connect timeout,
 * or the socket closing under a query. A retry soon succeeds, so the answer is 503, not 500. A write that met
 * it either committed or did not; its `Idempotency-Key` makes the retry safe either way.
 */
export function isTransientUnavailability(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || /^(08|57)[0-9A-Z]{3}$/.test(code))) return true;
  return (
    typeof message === 'string' &&
    /^(Connection terminated( unexpectedly| due to connection timeout)?|timeout exceeded when trying to connect)$/.test(
      message,
    )
  );
}

/** Maps every error that reaches Express to a problem document; internals of a 500 stay in the log. */
export function problemErrorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req: Request, res: Response, next) => {
    if (res.headersSent) {
      logger.error({ err }, 'error after the response started');
      next(err);
      return;
    }
    if (err instanceof NotFoundError) return sendNotFound(res);
    if (err instanceof DomainError) return sendProblem(req, res, err.code, err.message, err.errors);
    if (err instanceof ZodError)
      return sendProblem(req, res, 'validation', 'The request is invalid.', zodIssuesToFieldErrors(err));
    if (answeredAsUnreadable(err, req, res)) return;
    if (isTransientUnavailability(err)) {
      logger.warn({ err }, 'a dependency was unreachable; answered 503');
      return sendProblem(req, res, 'unavailable', 'A service this request needs cannot be reached right now.');
    }
    logger.error({ err }, 'unhandled error');
    sendProblem(req, res, 'internal', 'An unexpected error occurred.');
  };
}

/** Unknown routes: a bare 404, as for every unknown resource. */
export const bareNotFound: RequestHandler = (_req, res) => sendNotFound(res);
