import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';

export type ComponentName = 'zaken' | 'documenten' | 'catalogi';
export const COMPONENTS: readonly ComponentName[] = ['zaken', 'documenten', 'catalogi'];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
export type OpenApiDocument = JsonObject & {
  paths: Record<string, JsonObject>;
  components: { schemas: Record<string, Json> };
};

// The Zaken and Documenten documents point at the Catalogi document by this URL; there is no internet here.
const REMOTE_CATALOGI =
  'https://raw.githubusercontent.com/vng-Realisatie/catalogi-api/1.2.0/src/openapi.yaml#/components/schemas/';
const LOCAL_SCHEMAS = '#/components/schemas/';
const IMPORTED_PREFIX = 'Catalogi_';

// The documents sit in the package's openapi/ folder, above src/ (jest) and dist/src/ (built) alike.
export function openapiDirectory(): string {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'openapi');
    if (existsSync(path.join(candidate, 'zaken-openapi.yaml'))) return candidate;
  }
  throw new Error(`No openapi/ folder with the ZGW documents above ${__dirname}`);
}

export function readDocument(name: ComponentName): OpenApiDocument {
  return YAML.parse(readFileSync(path.join(openapiDirectory(), `${name}-openapi.yaml`), 'utf8')) as OpenApiDocument;
}

/**
 * The three documents as the validator reads them. The files stay byte-for-byte copies; in memory:
 * the remote Catalogi `$ref`s become local copies of the Catalogi schemas, and the OpenAPI 3.0
 * idioms Ajv cannot read as written (see `normaliseSchemas`) become their JSON Schema meaning.
 */
export function loadDocuments(): Record<ComponentName, OpenApiDocument> {
  const catalogi = readDocument('catalogi');
  return {
    zaken: normaliseSchemas(importCatalogiSchemas(readDocument('zaken'), catalogi)),
    documenten: normaliseSchemas(importCatalogiSchemas(readDocument('documenten'), catalogi)),
    catalogi: normaliseSchemas(catalogi),
  };
}

/**
 * Replaces each remote Catalogi reference by a local `Catalogi_<name>` schema copied (with what it references) from the
 * Catalogi document.
 */
export function importCatalogiSchemas(doc: OpenApiDocument, catalogi: OpenApiDocument): OpenApiDocument {
  const imported = new Set<string>();
  const collect = (name: string): void => {
    if (imported.has(name)) return;
    const schema = catalogi.components.schemas[name];
    if (schema === undefined) throw new Error(`The Catalogi document has no schema ${name}`);
    imported.add(name);
    walkRefs(schema, (ref) => {
      if (ref.startsWith(LOCAL_SCHEMAS)) collect(ref.slice(LOCAL_SCHEMAS.length));
    });
  };
  const rewritten = mapRefs(doc, (ref) => {
    if (!ref.startsWith(REMOTE_CATALOGI)) return ref;
    const name = ref.slice(REMOTE_CATALOGI.length);
    collect(name);
    return `${LOCAL_SCHEMAS}${IMPORTED_PREFIX}${name}`;
  }) as OpenApiDocument;
  for (const name of imported) {
    const schema = catalogi.components.schemas[name] as Json;
    rewritten.components.schemas[`${IMPORTED_PREFIX}${name}`] = mapRefs(schema, (ref) =>
      ref.startsWith(LOCAL_SCHEMAS) ? `${LOCAL_SCHEMAS}${IMPORTED_PREFIX}${ref.slice(LOCAL_SCHEMAS.length)}` : ref,
    );
  }
  return rewritten;
}

/**
 * Three OpenAPI 3.0 idioms of these generated documents, rewritten to what they mean in JSON Schema:
 * - `nullable: true` beside `allOf`/`oneOf` without `type` (Ajv refuses it; Open Zaak answers `null` there);
 * - `discriminator` + `oneOf` (the variants overlap, so plain `oneOf` rejects valid bodies): the
 *   discriminator value selects the variant, as OpenAPI defines;
 * - query parameters typed `integer` but described as a URL reference (a generator artefact: Open Zaak
 *   filters `?zaak=<url>`), read as a URL.
 */
export function normaliseSchemas(doc: OpenApiDocument): OpenApiDocument {
  const rewrite = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (node === null || typeof node !== 'object') return node;
    let out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) out[key] = rewrite(value);
    if (isUrlQueryParameter(out)) out = { ...out, schema: { type: 'string', format: 'uri' } };
    const discriminated = discriminatorAsConditionals(out);
    if (discriminated) out = discriminated;
    if (out['nullable'] === true && out['type'] === undefined && (out['allOf'] || out['oneOf'] || out['anyOf'])) {
      const { nullable: _nullable, ...rest } = out;
      out = { anyOf: [rest, { type: 'null' }] };
    }
    return out;
  };
  return rewrite(doc) as OpenApiDocument;
}

function isUrlQueryParameter(node: JsonObject): boolean {
  const schema = node['schema'];
  return (
    node['in'] === 'query' &&
    typeof node['description'] === 'string' &&
    node['description'].startsWith('URL-referentie') &&
    isObject(schema) &&
    schema['type'] === 'integer'
  );
}

function discriminatorAsConditionals(node: JsonObject): JsonObject | undefined {
  const discriminator = node['discriminator'];
  const variants = node['oneOf'];
  if (!isObject(discriminator) || !Array.isArray(variants)) return undefined;
  const property = discriminator['propertyName'];
  if (typeof property !== 'string') return undefined;
  const mapping: Record<string, string> = {};
  if (isObject(discriminator['mapping'])) {
    for (const [value, ref] of Object.entries(discriminator['mapping']))
      if (typeof ref === 'string') mapping[value] = ref;
  } else {
    // Without a mapping, OpenAPI takes the schema names as the discriminator values (GeoJSON: Point, Polygon…).
    for (const variant of variants) {
      const ref = isObject(variant) ? variant['$ref'] : undefined;
      if (typeof ref === 'string') mapping[ref.slice(ref.lastIndexOf('/') + 1)] = ref;
    }
  }
  const values = Object.keys(mapping);
  const { oneOf: _oneOf, discriminator: _discriminator, ...rest } = node;
  return {
    ...rest,
    type: 'object',
    required: [property],
    properties: { [property]: { type: 'string', enum: values } },
    allOf: values.map((value) => ({
      if: { properties: { [property]: { const: value } }, required: [property] },
      then: { $ref: mapping[value] as string },
    })),
  };
}

function isObject(value: Json | undefined): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function walkRefs(node: Json, visit: (ref: string) => void): void {
  if (Array.isArray(node)) return node.forEach((item) => walkRefs(item, visit));
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') visit(value);
    else walkRefs(value, visit);
  }
}

function mapRefs(node: Json, map: (ref: string) => string): Json {
  if (Array.isArray(node)) return node.map((item) => mapRefs(item, map));
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node))
    out[key] = key === '$ref' && typeof value === 'string' ? map(value) : mapRefs(value, map);
  return out;
}
