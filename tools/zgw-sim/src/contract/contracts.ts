import { OpenAPIBackend, type AjvCustomizer, type Operation, type Request as OpenApiRequest } from 'openapi-backend';
import { FORMATS } from './formats';
import { COMPONENTS, loadDocuments, type ComponentName, type OpenApiDocument } from './openapi-documents';

export interface ContractError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

export type RouteMatch =
  { kind: 'operation'; operation: Operation } | { kind: 'not-found' } | { kind: 'method-not-allowed' };

export interface Contract {
  readonly component: ComponentName;
  readonly basePath: string;
  readonly apiVersion: string;
  match(method: string, path: string): RouteMatch;
  validateRequest(request: OpenApiRequest, operation: Operation): ContractError[];
  validateResponse(operationId: string, status: number, body: unknown): ContractError[];
  validateResponseHeaders(operationId: string, status: number, headers: Record<string, string>): ContractError[];
  /**
   * Compiles the validators of these operations now rather than on their first call (about 2 s for the served ones).
   */
  warmUp(operationIds: readonly string[]): void;
}

export type Contracts = Record<ComponentName, Contract>;

let loading: Promise<Contracts> | undefined;

/** The three contracts, read once per process (parsing the documents takes about a second). */
export function loadContracts(): Promise<Contracts> {
  loading ??= build().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

async function build(): Promise<Contracts> {
  const documents = loadDocuments();
  const entries = await Promise.all(
    COMPONENTS.map(async (name) => [name, await buildContract(name, documents[name])] as const),
  );
  return Object.fromEntries(entries) as Contracts;
}

async function buildContract(component: ComponentName, document: OpenApiDocument): Promise<Contract> {
  const basePath = serverPath(document);
  // quick: the documents are not re-validated as OpenAPI (normalising left JSON Schema keywords in
  // them); validators compile on first use, so only the operations the simulator serves pay for it.
  const api = new OpenAPIBackend({
    definition: document as never,
    apiRoot: basePath,
    quick: true,
    strict: true,
    ajvOpts: { logger: false, allErrors: true },
    customizeAjv: addFormats,
  });
  await api.init();
  const routes = routeTable(api, basePath);
  const validator = api.validator;
  const info = document['info'] as { version?: string } | undefined;
  return {
    component,
    basePath,
    apiVersion: info?.version ?? '',
    match: (method, path) => routes.match(method, path),
    validateRequest(request, operation) {
      return (validator.validateRequest(request, operation.operationId).errors ?? []) as ContractError[];
    },
    validateResponse(operationId, status, body) {
      return (validator.validateResponse(body, operationId, status).errors ?? []) as ContractError[];
    },
    validateResponseHeaders(operationId, status, headers) {
      const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
      const errors = (validator.validateResponseHeaders(lower, operationId, { statusCode: status }).errors ??
        []) as ContractError[];
      for (const name of requiredResponseHeaders(api.router.getOperation(operationId), status)) {
        if (lower[name.toLowerCase()] === undefined)
          errors.push({ instancePath: `/headers/${name}`, keyword: 'required', params: { missingProperty: name } });
      }
      return errors;
    },
    warmUp(operationIds) {
      for (const operationId of operationIds) {
        if (!api.router.getOperation(operationId)) continue;
        validator.getRequestValidatorsForOperation(operationId);
        validator.getStatusBasedResponseValidatorForOperation(operationId);
        validator.getResponseHeadersValidatorForOperation(operationId);
      }
    },
  };
}

/**
 * The document's operations, flattened once. openapi-backend's router flattens every path of the document
 * again (lodash chains over the whole document) on each match and on each lookup by operationId, and its
 * validator looks operations up that way several times per request: a third of the simulator's time under
 * the mirror's bench. The list is fixed once the document is loaded, so the router is given the one list,
 * and matching uses patterns compiled once, in the router's own order: exact path first, then the most
 * specific template; a path that matches with another method is 405.
 */
function routeTable(api: OpenAPIBackend, basePath: string) {
  const operations = api.router.getOperations();
  const byId = new Map(operations.map((operation) => [operation.operationId, operation]));
  api.router.getOperations = () => operations;
  api.router.getOperation = (operationId: string) => byId.get(operationId);
  const specificity = (template: string) => template.replace(/\{.*?\}/g, '').length;
  const templates = operations
    .map((operation) => ({
      operation,
      pattern: new RegExp(pathPattern(operation.path)),
      specificity: specificity(operation.path),
    }))
    // A stable sort, as the router's orderBy.
    .sort((a, b) => b.specificity - a.specificity);
  const root = basePath.replace(/\/$/, '');
  return {
    match(method: string, path: string): RouteMatch {
      const wanted = method.trim().toLowerCase();
      let relative = (path.trim().startsWith('/') ? path.trim() : `/${path.trim()}`).split('?')[0] ?? '';
      if (root !== '') {
        if (relative === root) relative = '/';
        else if (relative.startsWith(`${root}/`)) relative = relative.slice(root.length) || '/';
        else return { kind: 'not-found' };
      }
      while (relative.length > 1 && relative.endsWith('/')) relative = relative.slice(0, -1);
      const exact = operations.find((operation) => operation.path === relative && operation.method === wanted);
      if (exact) return { kind: 'operation', operation: exact };
      const matching = templates.filter((template) => template.pattern.test(relative));
      if (matching.length === 0) return { kind: 'not-found' };
      const found = matching.find((template) => template.operation.method === wanted);
      return found ? { kind: 'operation', operation: found.operation } : { kind: 'method-not-allowed' };
    },
  };
}

/** openapi-backend's path template as a pattern: `{name}` is one segment, everything else literal. */
function pathPattern(template: string): string {
  const literal = (part: string) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return `^${template
    .replace(/\{[^}]+\}/g, '\0')
    .split('\0')
    .map(literal)
    .join('[^/]+')}$`;
}

function serverPath(document: OpenApiDocument): string {
  const servers = document['servers'] as Array<{ url: string }> | undefined;
  const url = servers?.[0]?.url;
  if (!url) throw new Error('An OpenAPI document without servers[0].url');
  return url;
}

const addFormats: AjvCustomizer = (ajv) => {
  for (const [name, validate] of Object.entries(FORMATS)) ajv.addFormat(name, { type: 'string', validate });
  return ajv;
};

function requiredResponseHeaders(operation: Operation | undefined, status: number): string[] {
  const response = operation?.responses?.[String(status)] as
    { headers?: Record<string, { required?: boolean }> } | undefined;
  return Object.entries(response?.headers ?? {})
    .filter(([, header]) => header.required === true)
    .map(([name]) => name);
}
