import type { CatalogiIndex } from '../catalogi/catalogi.index';
import type { Notifier } from '../notifications/notifier';
import type { IndexedMap, SimStore } from '../state/store';
import type { JwtClaims } from './zgw-jwt';

export interface ComponentUrls {
  zaken: string;
  documenten: string;
  catalogi: string;
}

export interface OperationRequest {
  method: string;
  /** Path on this server, without the query string. */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  claims: JwtClaims;
}

export interface OperationResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A non-JSON answer (the document download). */
  raw?: { contentType: string; data: Buffer };
}

export interface SimContext {
  store: SimStore;
  catalogi: CatalogiIndex;
  urls: ComponentUrls;
  /** The simulator's public base URL (no trailing slash): every resource URL starts with it. */
  baseUrl: string;
  pageSize: number;
  notifier: Notifier;
  now(): Date;
}

export type OperationHandler = (
  request: OperationRequest,
  ctx: SimContext,
) => OperationResult | Promise<OperationResult>;

export function created(
  body: Record<string, unknown> & { url: string },
  headers: Record<string, string> = {},
): OperationResult {
  return { status: 201, body, headers: { Location: body.url, ...headers } };
}

export function ok(body: unknown): OperationResult {
  return { status: 200, body };
}

/**
 * The candidates of a list filtered on `zaak`: the children of the zaak that URL names (the list's own filter
 * still applies); every record when the list is not filtered on a zaak of this simulator.
 */
export function childrenOfZaakUrl<T extends { zaakUuid: string }>(
  ctx: SimContext,
  records: IndexedMap<T>,
  zaakUrl: string | null,
): T[] {
  const prefix = `${ctx.urls.zaken}/zaken/`;
  if (zaakUrl === null || !zaakUrl.startsWith(prefix)) return [...records.values()];
  return ctx.store.childrenOf(records, zaakUrl.slice(prefix.length));
}
