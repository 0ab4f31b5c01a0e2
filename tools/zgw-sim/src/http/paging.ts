import type { OperationRequest, SimContext } from './operation';
import { ZgwError } from './zgw-errors';

// Open Zaak's PageNumberPagination: `page` from 1, `pageSize` up to 500 (an Open Zaak extension).
const MAX_PAGE_SIZE = 500;

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export function paginate<T>(items: T[], request: OperationRequest, ctx: SimContext): Page<T> {
  const requestedSize = Number(request.query.get('pageSize') ?? ctx.pageSize);
  const size = Math.min(Math.max(1, requestedSize || ctx.pageSize), MAX_PAGE_SIZE);
  const page = Number(request.query.get('page') ?? '1');
  const lastPage = Math.max(1, Math.ceil(items.length / size));
  if (!Number.isInteger(page) || page < 1 || page > lastPage) throw ZgwError.notFound('Ongeldige pagina.');
  return {
    count: items.length,
    next: page < lastPage ? pageUrl(request, ctx, page + 1) : null,
    previous: page > 1 ? pageUrl(request, ctx, page - 1) : null,
    results: items.slice((page - 1) * size, page * size),
  };
}

// As Django REST framework builds them: the same query, `page` replaced (dropped for page 1), keys sorted.
function pageUrl(request: OperationRequest, ctx: SimContext, page: number): string {
  const query = new URLSearchParams(request.query);
  if (page === 1) query.delete('page');
  else query.set('page', String(page));
  query.sort();
  const search = query.toString();
  return `${ctx.baseUrl}${request.path}${search ? `?${search}` : ''}`;
}

/** Documented filters the simulator does not apply: refusing them beats answering an unfiltered list. */
export function assertSupportedQuery(request: OperationRequest, supported: readonly string[]): void {
  const unsupported = [...new Set(request.query.keys())].filter(
    (name) => !supported.includes(name) && name !== 'page' && name !== 'pageSize',
  );
  if (unsupported.length > 0) {
    throw new ZgwError(
      501,
      'NotImplemented',
      `De simulator ondersteunt deze query parameters niet: ${unsupported.join(', ')}`,
    );
  }
}
