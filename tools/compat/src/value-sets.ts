/**
 * ADR 0227: a schema a consumer reads (an event payload, an internal API's answer) may not allow a value at a
 * place where v1.0.0 allowed only a closed set. A consumer that switches on `besluit` or an event's `kind` has no
 * branch for a value it has never seen, so a new one breaks it as surely as a removed field.
 *
 * Optic's rule "request and response property enums" refuses a new value in an object property's `enum`, but
 * not in an array's `items`, in a map's values, in a union of literals (`anyOf`/`oneOf` of `const`, a new variant
 * of a discriminated union) or at the top of the schema: those are what this rule adds.
 */

type Schema = Record<string, unknown>;
/** The values a place allows: a closed set (as JSON text, so `null` and numbers compare), or any. */
type Values = Set<string> | 'open';

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Follows a local `$ref` (`#/$defs/X`), as zod writes a schema with an id or one used twice. */
function resolve(root: Schema, node: Schema, seen: Set<string>): Schema | null {
  const ref = node['$ref'];
  if (typeof ref !== 'string') return node;
  if (seen.has(ref) || !ref.startsWith('#/')) return null;
  seen.add(ref);
  let target: unknown = root;
  for (const part of ref.slice(2).split('/')) target = isSchema(target) ? target[part.replace(/~1/g, '/')] : undefined;
  return isSchema(target) ? resolve(root, target, seen) : null;
}

/** A JSON Schema array keyword's items (unknown until checked), or none. */
const itemsOf = (value: unknown): unknown[] => (Array.isArray(value) ? (value as unknown[]) : []);

const union = (node: Schema) => [...itemsOf(node['anyOf']), ...itemsOf(node['oneOf'])].filter(isSchema);

/** The closed set a schema allows, or `open`: `const`, `enum`, `type: 'null'`, or a union of those. */
function valuesOf(root: Schema, raw: Schema, seen: Set<string>): Values {
  const node = resolve(root, raw, new Set(seen));
  if (!node) return 'open';
  if ('const' in node) return new Set([JSON.stringify(node['const'])]);
  if (Array.isArray(node['enum'])) return new Set(node['enum'].map((v) => JSON.stringify(v)));
  if (node['type'] === 'null') return new Set(['null']);
  const branches = union(node);
  if (branches.length === 0) return 'open';
  const all = new Set<string>();
  for (const branch of branches) {
    const values = valuesOf(root, branch, seen);
    if (values === 'open') return 'open';
    for (const v of values) all.add(v);
  }
  return all;
}

/**
 * Every place in a schema with the values it allows: `''` for the whole, `/properties/<name>`, `/items`,
 * `/additionalProperties`, … A place reached through several branches of a union (a discriminated union's
 * `kind`) allows what any branch allows.
 */
export function valueSets(root: Schema): Map<string, Values> {
  const places = new Map<string, Values>();
  const record = (place: string, values: Values) => {
    const before = places.get(place);
    if (before === 'open' || values === 'open') places.set(place, 'open');
    else places.set(place, new Set([...(before ?? []), ...values]));
  };
  const walk = (raw: Schema, place: string, seen: Set<string>) => {
    const node = resolve(root, raw, new Set(seen));
    if (!node) return;
    const inner = typeof raw['$ref'] === 'string' ? new Set([...seen, raw['$ref']]) : seen;
    const branches = union(node);
    // A union's place is recorded by its branches; a branch that is an object adds its own places below.
    if (branches.length > 0) for (const branch of branches) walk(branch, place, inner);
    else record(place, valuesOf(root, node, inner));
    if (Array.isArray(node['allOf'])) for (const part of node['allOf'].filter(isSchema)) walk(part, place, inner);
    if (isSchema(node['properties']))
      for (const [name, child] of Object.entries(node['properties']))
        if (isSchema(child)) walk(child, `${place}/properties/${name}`, inner);
    if (isSchema(node['items'])) walk(node['items'], `${place}/items`, inner);
    if (Array.isArray(node['prefixItems']))
      node['prefixItems'].forEach((child, i) => isSchema(child) && walk(child, `${place}/prefixItems/${i}`, inner));
    if (isSchema(node['additionalProperties']))
      walk(node['additionalProperties'], `${place}/additionalProperties`, inner);
  };
  walk(root, '', new Set());
  return places;
}

/**
 * Each place where v1.0.0 allowed a closed set of values and the live schema allows more, in words; empty when
 * there is none. A place the live schema no longer has is left to Optic (a removed field).
 */
export function addedValues(frozen: Schema, live: Schema): string[] {
  const before = valueSets(frozen);
  const after = valueSets(live);
  const found: string[] = [];
  for (const [place, was] of before) {
    const now = after.get(place);
    if (was === 'open' || now === undefined) continue;
    const where = place || '(the whole payload)';
    if (now === 'open') found.push(`${where}: allows any value where v1.0.0 allowed ${[...was].join(', ')}`);
    else {
      const added = [...now].filter((v) => !was.has(v));
      if (added.length > 0) found.push(`${where}: adds ${added.join(', ')} to ${[...was].join(', ')}`);
    }
  }
  return found;
}
