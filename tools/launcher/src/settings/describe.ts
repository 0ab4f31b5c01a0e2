import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';

/** One setting as one reader's schema declares it. */
export interface Reading {
  /** A service's name, `npm start` or `docker compose`. */
  by: string;
  description: string;
  /** The default as it is written in the environment; absent: none (or `defaultText`). */
  default?: string;
  /** A default that is not one value (a path in the temp directory, one port per service), in words. */
  defaultText?: string;
  /** Without a value the reader does not start. */
  required: boolean;
}

type Schema = z.core.$ZodType;
type Def = { type: string; innerType?: Schema; in?: Schema; out?: Schema; defaultValue?: unknown };

const defOf = (schema: Schema) => schema._zod.def as unknown as Def;

/** The schemas a field wraps, outermost first (defaults, optionals, pipes and preprocessing). */
function layers(schema: Schema): Schema[] {
  const out: Schema[] = [];
  const queue = [schema];
  while (queue.length > 0) {
    const s = queue.shift()!;
    out.push(s);
    const def = defOf(s);
    if (def.innerType) queue.push(def.innerType);
    if (def.type === 'pipe') queue.push(...[def.in, def.out].filter((x): x is Schema => x !== undefined));
  }
  return out;
}

function metaOf(schema: Schema): { description?: string; defaultText?: string } {
  for (const layer of layers(schema)) {
    const meta = z.globalRegistry.get(layer);
    if (meta?.description) return { description: meta.description, ...textOf(meta['defaultText']) };
  }
  return {};
}

const textOf = (value: unknown) => (typeof value === 'string' ? { defaultText: value } : {});

/** The default as written in the environment: a `prefault` as given, a `default` (already parsed) as a string. */
function writtenDefault(name: string, schema: Schema): string | undefined {
  for (const layer of layers(schema)) {
    const def = defOf(layer);
    if (def.type !== 'default' && def.type !== 'prefault') continue;
    const value = def.defaultValue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw new Error(`${name}: a default that is not one value needs a defaultText in its .meta()`);
  }
  return undefined;
}

/** Every field of a reader's schema as a Reading; a default that would not parse back to itself is an error. */
export function readingsOf(by: string, schema: z.ZodObject): Array<{ name: string; reading: Reading }> {
  return Object.entries(schema.shape as Record<string, Schema>).map(([name, field]) => {
    const { description, defaultText } = metaOf(field);
    if (!description) throw new Error(`${by}: ${name} has no description (.describe() on its schema)`);
    const written = defaultText ? undefined : writtenDefault(name, field);
    const parsedDefault = z.safeParse(field, undefined);
    if (written !== undefined && written !== '' && parsedDefault.success) {
      const again = z.safeParse(field, written);
      if (!again.success || !isDeepStrictEqual(again.data, parsedDefault.data))
        throw new Error(`${by}: ${name}=${written} does not parse to the schema's own default`);
    }
    const reading: Reading = {
      by,
      description,
      ...(written !== undefined ? { default: written } : {}),
      ...(defaultText ? { defaultText } : {}),
      required: !parsedDefault.success,
    };
    return { name, reading };
  });
}
