import { z } from 'zod';
import { diverged, ok, type Result } from './mirror-rules';
import type { ZgwAnswer } from './zgw';

/** A created or listed resource, as far as the mirror reads it. */
export const Resource = z.object({ url: z.url() }).loose();
export const Page = <T extends z.ZodType>(item: T) =>
  z.object({ count: z.number().int().min(0), next: z.string().nullish(), results: z.array(item) }).loose();

/**
 * An answer read as the mirror expects it: `transport` stays (it may be retried); any other status than
 * `expected`, or a body that is not the expected JSON, is a divergence (never retried, ADR 0011).
 */
export function readAnswer<S extends z.ZodType>(
  answer: ZgwAnswer,
  expected: number,
  schema: S,
  what: string,
): Result<z.output<S>> {
  if (answer.kind === 'transport') return answer;
  if (answer.status !== expected) return diverged(`${what} answered ${answer.status}${problemCode(answer.body)}`);
  const parsed = schema.safeParse(answer.body);
  return parsed.success
    ? ok(parsed.data)
    : diverged(`${what} answered ${answer.status} with a body outside the contract`);
}

/** Open Zaak's error `code` (and the first invalid parameter's), for the log and last_error: never a value. */
function problemCode(body: unknown): string {
  if (typeof body !== 'object' || body === null) return '';
  const b = body as { code?: unknown; invalidParams?: Array<{ name?: unknown; code?: unknown }> };
  const first = Array.isArray(b.invalidParams) ? b.invalidParams[0] : undefined;
  const param = first ? ` ${String(first.name)}:${String(first.code)}` : '';
  return typeof b.code === 'string' ? ` (${b.code}${param})` : '';
}

/** The uuid at the end of a resource URL. */
export function uuidOf(url: string): string | null {
  const last = url.replace(/\/+$/, '').split('/').pop() ?? '';
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(last) ? last.toLowerCase() : null;
}
