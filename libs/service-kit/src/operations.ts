import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { z } from 'zod';
import { guardFor, identityOf, type Identity } from '@register/authz';
import type { HttpMethod, RouteRule } from '@register/contracts';
import { DomainError, validationError, zodIssuesToFieldErrors } from '@register/problem';
import { findHostileJson } from './hostile-input';
import type { Kysely } from 'kysely';
import { caseSensitiveRouter } from './http';
import type { Logger } from './logger';
import type { WithOutbox } from './outbox';
import {
  FOREIGN_TRACEPARENT_HEADER,
  recordProcessingAfter,
  runAsProcessing,
  type ProcessingLog,
} from './processing-log';
import { OpenAPIRegistry, ProblemDetails } from './openapi';
import type { ZodRequestBody } from '@asteasolutions/zod-to-openapi';

/** What a handler answers: a status and a JSON body (none: no content), and extra headers. */
export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

type AnyObject = z.ZodObject<z.ZodRawShape>;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** The parsed request a handler receives: every part already validated by the operation's schemas. */
export interface Input<P, Q, H, B, L> {
  params: Out<P>;
  query: Out<Q>;
  headers: Out<H>;
  body: Out<B>;
  /** What `load` found (the resource the path names), checked before the body (404 before 400). */
  loaded: L;
  identity: Identity | null;
  req: Request;
  res: Response;
}

/** A response entry of the description: a JSON schema, no content, or a non-JSON body (a file, a PDF). */
/** A body of its own kind: one content type, or each type it may be served as (a stored file keeps its own). */
export type ResponseSpec =
  z.ZodType | null | { description: string; contentType: string | readonly string[]; schema?: z.ZodType };

/**
 * One HTTP operation, declared once: the route it serves, the zod schemas that parse its request (the same
 * ones the OpenAPI description is generated from), its answers, and the use case it calls.
 */
export interface Operation<Ctx, P = unknown, Q = unknown, H = unknown, B = unknown, L = unknown> {
  /** A public route: its rule (method, path, requirement) comes from the context's contract. */
  rule?: RouteRule;
  /** An internal route (`/internal/...`): a calling service only, never in the public description. */
  internal?: { method: HttpMethod; path: string };
  operationId: string;
  summary: string;
  description?: string;
  /** Audience tags; derived from the rule's requirement when omitted. */
  tags?: string[];
  params?: P;
  query?: Q;
  headers?: H;
  /** A JSON body schema; `multipart` describes a multipart form that the handler streams itself. */
  body?: B;
  /** The largest JSON body this operation reads (the service's `jsonLimit` otherwise). */
  bodyLimit?: string | number;
  multipart?: z.ZodType;
  /**
   * Finds the resource the path names (throw NotFoundError: a bare 404), or refuses the caller, before a byte of
   * the body is read: 401, 403 and 404 come before 400, 413 and 415.
   */
  load?: (ctx: Ctx, input: Omit<Input<P, Q, H, B, undefined>, 'body' | 'loaded'>) => Promise<L>;
  responses: Record<number, ResponseSpec>;
  /** Problem statuses this operation can answer besides the ones its rule implies (401, 403, 404). */
  problems?: number[];
  /** Request examples for the description (from the demo data). */
  example?: unknown;
  /** Returns the reply, or nothing when it answered itself (a stream). */
  handle: (ctx: Ctx, input: Input<P, Q, H, B, L>) => Promise<Reply | void> | Reply | void;
}

/** Declares an operation with its types inferred from its schemas. */
export function defineOperation<
  Ctx,
  P extends AnyObject | undefined = undefined,
  Q extends AnyObject | undefined = undefined,
  H extends AnyObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  L = undefined,
>(op: Operation<Ctx, P, Q, H, B, L>): Operation<Ctx, P, Q, H, B, L> {
  return op;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation<Ctx> = Operation<Ctx, any, any, any, any, any>;

function parsePart<S>(schema: S | undefined, value: unknown, part: string): Out<S> {
  if (!schema) return undefined as Out<S>;
  const result = (schema as unknown as z.ZodType).safeParse(value);
  // Fields are named as the client wrote them (`limit`, `subject`, `draft.x`), without the request part.
  if (!result.success) throw validationError(zodIssuesToFieldErrors(result.error), `The request ${part} is invalid.`);
  return result.data as Out<S>;
}

function methodAndPath(op: AnyOperation<unknown>): { method: HttpMethod; path: string } {
  const target = op.rule ?? op.internal;
  if (!target) throw new Error(`operation ${op.operationId} has neither a rule nor an internal route`);
  return target;
}

const JSON_TYPES = ['application/json', 'application/*+json'];

/** body-parser reports its failures as errors; anything else is wrapped so a rejection always carries one. */
function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error('the request body could not be read', { cause: err });
}

/** The JSON body, read and parsed only once the operation's checks passed; hostile JSON is a 400. */
function jsonBodyReader(limit: string | number): (req: Request, res: Response) => Promise<unknown> {
  const parse = express.json({ limit, type: JSON_TYPES });
  return (req, res) =>
    new Promise<void>((resolve, reject) =>
      parse(req, res, (err?: unknown) => (err ? reject(asError(err)) : resolve())),
    ).then(
      () => {
        const body: unknown = req.body;
        const found = findHostileJson(body);
        if (found) throw validationError([found], 'The request body is not acceptable.');
        return body;
      },
      (err: unknown) => {
        if ((err as { type?: unknown }).type !== 'entity.parse.failed') throw err;
        throw validationError(
          [{ field: '', code: 'invalid_json', detail: 'The body is not valid JSON.' }],
          'The request body is not valid JSON.',
        );
      },
    );
}

/** Where the operations' processing records go: the service's log and its outbox (the database itself, for reads). */
export interface OperationsProcessing {
  log: ProcessingLog;
  db: Kysely<WithOutbox>;
  logger: Logger;
}

/** How the kit runs the operations: the service's JSON limit (unless an operation sets its own), its processing log. */
export interface OperationsOptions {
  jsonLimit?: string;
  processing?: OperationsProcessing;
}

/** The Express handler of an operation: parse params, query and headers, load, read and parse the body, handle. */
function handlerOf<Ctx>(ctx: Ctx, op: AnyOperation<Ctx>, options: OperationsOptions): RequestHandler {
  const readBody = op.body ? jsonBodyReader(op.bodyLimit ?? options.jsonLimit ?? '300kb') : null;
  const handle: RequestHandler = async (req, res) => {
    const identity = identityOf(res);
    // The operations of a router differ in their schemas, so the parsed parts are unknown here and typed in `handle`.
    const params: unknown = parsePart(op.params, req.params, 'params');
    const query: unknown = parsePart(op.query, req.query, 'query');
    const headers: unknown = parsePart(op.headers, req.headers, 'headers');
    const base = {
      params,
      query,
      headers,
      identity,
      req,
      res,
    };
    const loaded: unknown = op.load ? await op.load(ctx, base) : undefined;
    const body: unknown = readBody ? parsePart(op.body, (await readBody(req, res)) ?? {}, 'body') : undefined;
    const reply = await op.handle(ctx, { ...base, body, loaded });
    // The processing's records before the answer: a read the caller saw is a read the log holds.
    if (processing) await recordAfterSuccess(processing, op.operationId);
    if (!reply || res.headersSent) return;
    for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
    res.status(reply.status ?? (reply.body === undefined ? 204 : 200));
    if (reply.body === undefined) res.end();
    else res.json(reply.body);
  };
  const activity = op.rule?.processing;
  const processing = activity && activity !== 'none' && options.processing?.log.on ? options.processing : null;
  if (!processing || !activity || activity === 'none' || !op.rule) return handle;
  const rule = op.rule;
  const name = `${rule.method} ${rule.path}`;
  // A practitioner-only route processes the caller's own data; any other names its subjects (`concerns`).
  const ownOnly = rule.requires.kind === 'capability' && rule.requires.anyOf.every((c) => c === 'applications:own');
  const door = rule.requires.kind === 'shared-secret' ? 'systeem' : 'medewerker';
  return (req, res, next) => {
    const self = identityOf(res)?.practitioner?.subject ?? null;
    const subjects = ownOnly && self ? [self] : [];
    const foreign = req.headers[FOREIGN_TRACEPARENT_HEADER];
    const scope = {
      activity,
      name,
      self,
      door,
      subjects,
      ...(typeof foreign === 'string' ? { foreignTraceparent: foreign } : {}),
    } as const;
    return runAsProcessing(processing.log, scope, () => Promise.resolve(handle(req, res, next)));
  };
}

async function recordAfterSuccess(processing: OperationsProcessing, operationId: string): Promise<void> {
  if (!(await recordProcessingAfter(processing.db))) {
    // A route with an activity that named no data subject: a defect of that route, not of the caller's request.
    processing.logger.warn({ operationId }, 'processing log: the request named no data subject');
  }
}

/** Internal routes serve other services only (the kit's app already refused unsigned calls). */
const serviceCallerOnly: RequestHandler = (_req, res, next) => {
  if (!res.locals['caller']) return next(new DomainError('forbidden', 'Internal routes serve other services only.'));
  next();
};

/** Mounts operations on a router: public ones behind their rule's guard, internal ones for services only. */
export function operationsRouter<Ctx>(
  ctx: Ctx,
  operations: readonly AnyOperation<Ctx>[],
  options: OperationsOptions = {},
): Router {
  const router = caseSensitiveRouter();
  for (const op of operations) {
    const { method, path } = methodAndPath(op as AnyOperation<unknown>);
    const lower = method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    router[lower](path, op.rule ? guardFor(op.rule) : serviceCallerOnly, handlerOf(ctx, op, options));
  }
  return router;
}

/** Audience tags of the description, from what a route requires. */
export const AUDIENCE = {
  practitioner: 'Practitioner',
  caseHandler: 'Case handler',
  letters: 'Letters',
  administration: 'Administration',
  reference: 'Reference data',
  system: 'System',
} as const;

function audienceOf(rule: RouteRule): string {
  const r = rule.requires;
  if (r.kind !== 'capability') return r.kind === 'shared-secret' ? AUDIENCE.system : AUDIENCE.reference;
  const caps = r.anyOf;
  if (caps.includes('applications:own')) return AUDIENCE.practitioner;
  if (caps.includes('CanBeoordelen')) return AUDIENCE.caseHandler;
  if (caps.some((c) => c.startsWith('brief:'))) return AUDIENCE.letters;
  if (caps.includes('stamdata:read')) return AUDIENCE.reference;
  return AUDIENCE.administration;
}

/** Security requirements of a rule, as alternatives of the identity header schemes (ADR 0001). */
export function securityOf(rule: RouteRule): Array<Record<string, string[]>> {
  // X-Role and X-Rollen may be left out (no role, no roles): each identity is described with and without them.
  const practitioner: Array<Record<string, string[]>> = [{ subject: [], role: [] }, { subject: [] }];
  const caseHandler: Array<Record<string, string[]>> = [{ medewerker: [], rollen: [] }, { medewerker: [] }];
  const r = rule.requires;
  if (r.kind === 'shared-secret') return [{ notificatiesAuth: [] }];
  if (r.kind === 'identity') return [...practitioner, ...caseHandler];
  const handlerOnly = r.anyOf.every((c) => c === 'CanBeoordelen');
  const both = r.anyOf.includes('CanBeoordelen') && !handlerOnly;
  return handlerOnly ? caseHandler : both ? [...practitioner, ...caseHandler] : practitioner;
}

const PROBLEM_TEXT: Record<number, string> = {
  400: 'The request is invalid (`errors` names each field).',
  401: 'No valid identity.',
  403: 'The caller lacks the capability or decision this operation needs.',
  409:
    'The resource is in a state that does not allow this operation, ' +
    'or a request with this `Idempotency-Key` is still running.',
  413: 'The body or file is too large.',
  415: 'The content type is not accepted.',
  422: 'The request cannot be processed as given (on a write also: this `Idempotency-Key` came with another body).',
  503: 'A service this request needs is unavailable; retry later.',
};

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** ADR 0015 and the NL API Design Rules' version-header rule: every answer names the API's full version. */
export const API_VERSION_HEADER = {
  'API-Version': {
    description: "The full version of the API (the description's label is `v1`).",
    schema: { type: 'string', example: '1.0.0' },
  },
} as const;

const CORRELATION_PARAMETER = {
  name: 'X-Correlation-Id',
  in: 'header' as const,
  required: false,
  description:
    'Optional; echoed on the response and in every problem and audit ' +
    'row (`^[A-Za-z0-9._:-]{1,128}$`, otherwise a new one is made).',
  schema: { type: 'string' as const, maxLength: 128, example: 'portal-7f3a9c' },
};

const IDEMPOTENCY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header' as const,
  required: false,
  description:
    'Optional on writes: a retry with the same key and body replays the first answer (`Idempotent-Replayed: ' +
    'true`); another body is 422, a repeat while the first runs 409. Kept 24 hours.',
  schema: { type: 'string' as const, minLength: 1, maxLength: 255, example: 'create-1' },
};

function responseSpec(status: string, spec: ResponseSpec): object {
  const ok = /^[23]/.test(status);
  const headers = ok ? { headers: API_VERSION_HEADER } : {};
  if (spec === null)
    return {
      description: status === '304' ? 'Not modified (the `ETag` sent in `If-None-Match` is current)' : 'No content',
      ...headers,
    };
  if (spec instanceof z.ZodType)
    return { description: 'OK', ...headers, content: { 'application/json': { schema: spec } } };
  return {
    description: spec.description,
    ...headers,
    content: Object.fromEntries(
      [spec.contentType].flat().map((type) => [type, spec.schema ? { schema: spec.schema } : {}]),
    ),
  };
}

/** What a rule scoped to a query parameter adds, in words (the description's security cannot say it). */
function scopeText(rule: RouteRule): string | null {
  const scoped = rule.scoped;
  if (scoped?.requires.kind !== 'capability') return null;
  const caps = scoped.requires.anyOf.map((c) => `\`${c}\``).join(', ');
  return `With \`${scoped.query}\` the caller also needs one of ${caps} (403 otherwise, before the 404).`;
}

/** An operation's own responses, and the problems its rule and its method imply. */
function responsesOf(op: AnyOperation<never>, rule: RouteRule): Record<string, object> {
  const responses: Record<string, object> = {};
  for (const [status, spec] of Object.entries(op.responses)) responses[status] = responseSpec(status, spec);
  const write = rule.method !== 'GET';
  // Any request may be refused as malformed (ADR 0015), every route needs an identity, every route is served
  // by a service the gateway may find unavailable (503, ADR 0200), and a write's Idempotency-Key may be reused
  // with another body (422) or while its first request runs (409).
  const problems = new Set<number>([400, 401, 503, ...(write ? [409, 422] : []), ...(op.problems ?? [])]);
  if (rule.requires.kind === 'capability') problems.add(403);
  // An unknown resource is a bare 404, whether its id is in the path or in the query (`problems: [404]`).
  const notFound = problems.delete(404) || rule.path.includes(':');
  for (const status of [...problems].sort()) {
    responses[status] = {
      description: PROBLEM_TEXT[status] ?? 'Problem',
      content: { 'application/problem+json': { schema: ProblemDetails } },
    };
  }
  if (notFound) responses['404'] = { description: 'Unknown resource (a bare 404 without a body)' };
  return responses;
}

/** The request body: JSON described by the schema that parses it (with its example), or a multipart form. */
function requestBodyOf(op: AnyOperation<never>): ZodRequestBody | undefined {
  if (op.body) {
    const example = op.example !== undefined ? { example: op.example } : {};
    return { content: { 'application/json': { schema: op.body as z.ZodType, ...example } }, required: true };
  }
  if (op.multipart) return { content: { 'multipart/form-data': { schema: op.multipart } }, required: true };
  return undefined;
}

/** Registers the public operations in the description, from the same schemas that parse their requests. */
export function describeOperations(registry: OpenAPIRegistry, operations: readonly AnyOperation<never>[]): void {
  for (const op of operations) {
    const rule = op.rule;
    if (!rule) continue;
    const write = rule.method !== 'GET';
    const responses = responsesOf(op, rule);
    const body = requestBodyOf(op);
    const description = [op.description, scopeText(rule)].filter(Boolean).join(' ');
    registry.registerPath({
      method: rule.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete',
      path: toOpenApiPath(rule.path),
      operationId: op.operationId,
      summary: op.summary,
      ...(description ? { description } : {}),
      tags: op.tags ?? [audienceOf(rule)],
      security: securityOf(rule),
      parameters: write ? [CORRELATION_PARAMETER, IDEMPOTENCY_PARAMETER] : [CORRELATION_PARAMETER],
      request: {
        ...(op.params ? { params: op.params as AnyObject } : {}),
        ...(op.query ? { query: op.query as AnyObject } : {}),
        ...(op.headers ? { headers: op.headers as AnyObject } : {}),
        ...(body ? { body } : {}),
      },
      responses,
    });
  }
}
