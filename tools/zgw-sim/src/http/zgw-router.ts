import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { Operation } from 'openapi-backend';
import type { Contract, Contracts } from '../contract/contracts';
import { toInvalidParams } from '../contract/invalid-params';
import { COMPONENTS, type ComponentName } from '../contract/openapi-documents';
import type { Fault } from '../faults/faults';
import { HANDLERS } from './handlers';
import type { OperationResult, SimContext } from './operation';
import { errorBody, ZgwError } from './zgw-errors';
import { verifyZgwJwt, type JwtClaims, type JwtSettings } from './zgw-jwt';

export interface ZgwRouterOptions {
  contracts: Contracts;
  ctx: SimContext;
  jwt: JwtSettings;
  /** Check every answer against the document before sending it; a mismatch is the simulator's bug and answers 500. */
  checkResponses: boolean;
  logger: Logger;
}

const CRS = 'EPSG:4326';

/**
 * One ZGW request, in Open Zaak's order: route, JWT (403), CRS (412/406), media type (415), body (400), the operation.
 */
export function zgwRequestHandler(options: ZgwRouterOptions) {
  return async (req: Request, res: Response): Promise<void> => {
    const contract = contractFor(options.contracts, req.path);
    const headers: Record<string, string> = contract ? { 'API-version': contract.apiVersion } : {};
    const handled = await handle(req, contract, headers, options);
    let result = handled.result;
    const operation = handled.operation;
    if (options.checkResponses && operation?.operationId && contract && !result.raw) {
      result = checkedAgainstContract(contract, operation.operationId, result, headers, options.logger);
    }
    const fault = res.locals['resetFault'] as Fault | undefined;
    logRequest(req, res, { operation, claims: handled.claims, result, fault }, options);
    // A "reset" fault: the work is done, the answer is lost.
    if (fault) {
      req.socket.resetAndDestroy();
      return;
    }
    send(res, result, headers, options.ctx.baseUrl);
  };
}

/** Route, JWT, CRS and the operation; any refusal becomes the result (a ZGW error document). */
async function handle(
  req: Request,
  contract: Contract | undefined,
  headers: Record<string, string>,
  options: ZgwRouterOptions,
): Promise<{ result: OperationResult; operation?: Operation; claims?: JwtClaims }> {
  let operation: Operation | undefined;
  let claims: JwtClaims | undefined;
  try {
    if (!contract) throw ZgwError.notFound();
    const match = contract.match(req.method, req.path);
    if (match.kind === 'not-found') throw ZgwError.notFound();
    if (match.kind === 'method-not-allowed')
      throw new ZgwError(405, 'MethodNotAllowed', `Methode "${req.method}" niet toegestaan.`);
    operation = match.operation;
    // Open Zaak's GeoMixin answers Content-Crs on every response of the zaak endpoints, errors included.
    if (isGeoOperation(operation)) headers['Content-Crs'] = CRS;
    claims = await verifyZgwJwt(req.headers.authorization, options.jwt, options.ctx.now().getTime());
    if (isGeoOperation(operation)) checkCrs(req);
    return { result: await runOperation(req, contract, operation, claims, options.ctx), operation, claims };
  } catch (err) {
    return { result: failure(err, options.logger), ...(operation ? { operation } : {}), ...(claims ? { claims } : {}) };
  }
}

/** The simulator's request log (GET /_sim/requests): what was asked, what was answered, which fault applied. */
function logRequest(
  req: Request,
  res: Response,
  outcome: { operation?: Operation; claims?: JwtClaims; result: OperationResult; fault?: Fault },
  options: ZgwRouterOptions,
): void {
  const { operation, claims, result, fault } = outcome;
  const delayed = res.locals['fault'] as Fault | undefined;
  options.ctx.store.logRequest({
    at: options.ctx.now().toISOString(),
    method: req.method,
    path: req.path,
    ...(operation?.operationId ? { operationId: operation.operationId } : {}),
    status: fault ? 'reset' : result.status,
    ...(fault ? { lostStatus: result.status } : {}),
    ...(claims ? { claims: { ...claims } } : {}),
    ...(fault || delayed ? { faultId: (fault ?? delayed)?.id } : {}),
  });
}

async function runOperation(
  req: Request,
  contract: Contract,
  operation: Operation,
  claims: JwtClaims,
  ctx: SimContext,
): Promise<OperationResult> {
  const operationId = operation.operationId ?? '';
  const handler = HANDLERS[operationId];
  if (!handler) throw new ZgwError(501, 'NotImplemented', `De simulator ondersteunt ${operationId} niet.`);
  const body = operation.requestBody ? parseBody(req) : undefined;
  const queryString = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
  const headers = Object.fromEntries(
    Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]),
  );
  if (body !== undefined) headers['content-type'] = 'application/json';
  const errors = contract.validateRequest(
    { method: req.method, path: req.path, headers, query: queryString, body },
    operation,
  );
  // A path that does not fit its pattern (a uuid that is not one) does not resolve in Open Zaak: 404.
  if (errors.some((error) => error.instancePath.startsWith('/path'))) throw ZgwError.notFound();
  if (errors.length > 0) throw ZgwError.validation(toInvalidParams(errors, body));
  // Every path parameter the served operations have is the resource's {uuid}.
  const uuid = /\/([0-9a-f-]{36})(?:\/[a-z]+)?\/?$/i.exec(req.path)?.[1];
  return handler(
    {
      method: req.method,
      path: req.path,
      params: uuid ? { uuid } : {},
      query: new URLSearchParams(queryString),
      body,
      claims,
    },
    ctx,
  );
}

function parseBody(req: Request): unknown {
  const mediaType = String(req.headers['content-type'] ?? '')
    .split(';')[0]
    ?.trim()
    .toLowerCase();
  if (mediaType !== 'application/json')
    throw new ZgwError(415, 'UnsupportedMediaType', `Ongeldig mediatype "${mediaType}" in aanvraag.`);
  const raw = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
  // Django REST framework reads an empty body as an empty object.
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch (err) {
    throw new ZgwError(
      400,
      'ParseError',
      `JSON parse error - ${err instanceof Error ? err.message : String(err)}`,
      'parse_error',
    );
  }
}

function checkCrs(req: Request): void {
  const method = req.method.toUpperCase();
  if (['POST', 'PUT', 'PATCH'].includes(method)) {
    const contentCrs = req.headers['content-crs'];
    if (contentCrs === undefined) throw new ZgwError(412, 'PreconditionFailed', "'Content-Crs' header ontbreekt");
    if (contentCrs !== CRS) throw new ZgwError(406, 'NotAcceptable', `CRS '${String(contentCrs)}' is niet ondersteund`);
  }
  if (method === 'DELETE') return;
  // Optional in Open Zaak 1.x; a CRS it cannot deliver is refused.
  const acceptCrs = req.headers['accept-crs'];
  if (acceptCrs !== undefined && acceptCrs !== CRS)
    throw new ZgwError(406, 'NotAcceptable', `CRS '${String(acceptCrs)}' is niet ondersteund`);
}

function isGeoOperation(operation: Operation): boolean {
  return (operation.parameters ?? []).some(
    (parameter) =>
      'in' in parameter && parameter.in === 'header' && ['Content-Crs', 'Accept-Crs'].includes(parameter.name),
  );
}

function contractFor(contracts: Contracts, path: string): Contract | undefined {
  const name = COMPONENTS.find(
    (component: ComponentName) =>
      path === contracts[component].basePath || path.startsWith(`${contracts[component].basePath}/`),
  );
  return name ? contracts[name] : undefined;
}

function failure(err: unknown, logger: Logger): OperationResult {
  if (err instanceof ZgwError) return { status: err.status, body: err };
  logger.error({ err }, 'simulator failure');
  return { status: 500, body: new ZgwError(500, 'APIException', 'Er is een serverfout opgetreden.') };
}

function checkedAgainstContract(
  contract: Contract,
  operationId: string,
  result: OperationResult,
  headers: Record<string, string>,
  logger: Logger,
): OperationResult {
  const body = result.body instanceof ZgwError ? errorBody(result.body, 'http://simulator') : result.body;
  const errors = [
    ...(result.status === 204 ? [] : contract.validateResponse(operationId, result.status, body)),
    ...contract.validateResponseHeaders(operationId, result.status, { ...headers, ...result.headers }),
  ];
  if (errors.length === 0) return result;
  logger.error({ operationId, status: result.status, errors }, 'the simulator answered outside its contract');
  const detail =
    `Het antwoord van de simulator (${result.status}) past niet in het document: ` +
    `${errors.map((e) => `${e.instancePath} ${e.keyword}`).join('; ')}`;
  return { status: 500, body: new ZgwError(500, 'APIException', detail) };
}

function send(res: Response, result: OperationResult, headers: Record<string, string>, baseUrl: string): void {
  res.status(result.status).set({ ...headers, ...result.headers });
  if (result.raw) {
    res.type(result.raw.contentType).send(result.raw.data);
  } else if (result.body instanceof ZgwError) {
    res.type('application/problem+json').send(JSON.stringify(errorBody(result.body, new URL(baseUrl).origin)));
  } else if (result.status === 204 || result.body === undefined) {
    res.end();
  } else {
    res.type('application/json').send(JSON.stringify(result.body));
  }
}
