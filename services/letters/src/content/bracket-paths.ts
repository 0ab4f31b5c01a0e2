import { z } from 'zod';

/** `['sections', 2, 'blocks', 0, 'key']` → `['sections[2]', 'blocks[0]', 'key']`: the problem's `field` names the node. */
export function bracketPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

/**
 * The same schema, whose failures name each offending node as `sections[2].blocks[0].content…` (an unknown
 * key by its own path), instead of the kit's dotted form. The description is the inner schema's.
 */
export function withBracketPaths<T extends z.ZodType>(schema: T) {
  return z.preprocess((value, ctx) => {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        // One issue per key, under another code: zod lets a pipe continue past `unrecognized_keys` alone.
        for (const key of issue.keys) ctx.addIssue({ code: 'unrecognized_key', path: [bracketPath([...issue.path, key])], message: `Unknown field ${key}.` } as unknown as z.core.$ZodRawIssue);
      } else {
        ctx.addIssue({ ...issue, path: [bracketPath(issue.path)] } as z.core.$ZodRawIssue);
      }
    }
    return value;
  }, schema);
}
