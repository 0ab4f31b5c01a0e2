import { ok, type OperationHandler, type OperationRequest } from '../http/operation';
import { assertSupportedQuery, paginate } from '../http/paging';
import { ZgwError } from '../http/zgw-errors';
import type { CatalogiSeed, Resource } from './catalogi.seed';

type Collection = Exclude<keyof CatalogiSeed, 'catalogus'>;

/**
 * A list filtered on query parameters; each maps to the field it compares with (a URL list matches if it contains the
 * value).
 */
function filtered(request: OperationRequest, items: Resource[], filters: Record<string, string>): Resource[] {
  assertSupportedQuery(request, [...Object.keys(filters), 'status']);
  // Every seeded type is published: `status=concept` finds nothing, `alles` and `definitief` everything.
  if (request.query.get('status') === 'concept') return [];
  return items.filter((item) =>
    Object.entries(filters).every(([parameter, field]) => {
      const value = request.query.get(parameter);
      if (value === null) return true;
      const actual = item[field];
      return Array.isArray(actual) ? actual.includes(value) : actual === value;
    }),
  );
}

function read(collection: Collection, path: string): OperationHandler {
  return (request, ctx) => {
    const url = `${ctx.urls.catalogi}/${path}/${request.params['uuid'] ?? ''}`;
    const found = ctx.catalogi.seed[collection].find((item) => item.url === url);
    if (!found) throw ZgwError.notFound();
    return ok(found);
  };
}

export const listCatalogussen: OperationHandler = (request, ctx) =>
  ok(paginate(filtered(request, [ctx.catalogi.seed.catalogus], { domein: 'domein', rsin: 'rsin' }), request, ctx));

export const readCatalogus: OperationHandler = (request, ctx) => {
  const catalogus = ctx.catalogi.seed.catalogus;
  if (catalogus.url !== `${ctx.urls.catalogi}/catalogussen/${request.params['uuid'] ?? ''}`) throw ZgwError.notFound();
  return ok(catalogus);
};

export const listZaaktypen: OperationHandler = (request, ctx) =>
  ok(
    paginate(
      filtered(request, ctx.catalogi.seed.zaaktypen, { catalogus: 'catalogus', identificatie: 'identificatie' }),
      request,
      ctx,
    ),
  );

// Highest volgnummer first: a client that needs the lowest has to sort, as it must with any provider.
export const listStatustypen: OperationHandler = (request, ctx) => {
  const items = filtered(request, ctx.catalogi.seed.statustypen, { zaaktype: 'zaaktype' });
  return ok(
    paginate(
      [...items].sort((a, b) => Number(b['volgnummer']) - Number(a['volgnummer'])),
      request,
      ctx,
    ),
  );
};

export const listRoltypen: OperationHandler = (request, ctx) =>
  ok(
    paginate(
      filtered(request, ctx.catalogi.seed.roltypen, {
        zaaktype: 'zaaktype',
        omschrijvingGeneriek: 'omschrijvingGeneriek',
      }),
      request,
      ctx,
    ),
  );

export const listInformatieobjecttypen: OperationHandler = (request, ctx) =>
  ok(
    paginate(
      filtered(request, ctx.catalogi.seed.informatieobjecttypen, { catalogus: 'catalogus', zaaktype: 'zaaktypen' }),
      request,
      ctx,
    ),
  );

export const readZaaktype = read('zaaktypen', 'zaaktypen');
export const readStatustype = read('statustypen', 'statustypen');
export const readRoltype = read('roltypen', 'roltypen');
export const readInformatieobjecttype = read('informatieobjecttypen', 'informatieobjecttypen');
