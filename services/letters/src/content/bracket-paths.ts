import { z } from 'zod';

/**
 * `['sections', 2, 'blocks', 0, 'key']` → `['sections[2]', 'blocks[0]', 'key']`: the problem's `field` names the node.
 */
export function bracketPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

type RawIssue = z.core.$ZodRawIssue & { path?: PropertyKey[]; keys?: string[] };
interface Payload {
  value: unknown;
  issues: RawIssue[];
}
type Run = (payload: Payload, ctx: unknown) => Payload | Promise<Payload>;

/** The issues named by their bracket path, each unknown key as an issue of its own under its own path. */
function bracketed(issues: RawIssue[]): RawIssue[] {
  return issues.flatMap((issue): RawIssue[] => {
    const path = issue.path ?? [];
    if (issue.code !== 'unrecognized_keys') return [{ ...issue, path: [bracketPath(path)] }];
    return (issue.keys ?? []).map(
      (key) =>
        ({
          code: 'unrecognized_key',
          path: [bracketPath([...path, key])],
          message: `Unknown field ${key}.`,
          input: issue.input,
        }) as unknown as RawIssue,
    );
  });
}

/**
 * The same schema, whose failures name each offending node as `sections[2].blocks[0].content…` (an unknown
 * key by its own path), instead of the kit's dotted form. The body is parsed once: the schema's own run,
 * whose issues are renamed on the way out (a preprocess step that parsed it first made every save parse its
 * ~25 KB twice). zod's checks cannot do it: they do not run after an aborting issue (an oversized array).
 * The description is the schema's own.
 */
export function withBracketPaths<T extends z.ZodType>(schema: T): T {
  const inner = schema._zod as unknown as { run: Run };
  const run = inner.run;
  const renamed = (payload: Payload): Payload => {
    if (payload.issues.length > 0) payload.issues = bracketed(payload.issues);
    return payload;
  };
  inner.run = (payload, ctx) => {
    const result = run(payload, ctx);
    return result instanceof Promise ? result.then(renamed) : renamed(result);
  };
  return schema;
}
