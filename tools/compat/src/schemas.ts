import { z } from 'zod';
import * as contracts from '@register/contracts';

/** One contract schema as JSON Schema, under the name the baseline keeps it by. */
export interface NamedSchema {
  /** `events/<subject>` or `internal/<context>.<name>`. */
  name: string;
  schema: Record<string, unknown>;
}

const CONTEXTS = ['applications', 'audit', 'documents', 'gateway', 'letters', 'reference'] as const;
const SERVICES = ['applications', 'documents', 'letters', 'reference', 'audit', 'gateway'] as const;

// A transform or refinement has no JSON Schema: it is kept as `{}` (any), so the gate sees its neighbours.
const asJsonSchema = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { unrepresentable: 'any', io: 'output' }) as Record<string, unknown>;

/** Every event subject's payload: the contexts' `events` and each service's audit subject. */
export function eventSchemas(): NamedSchema[] {
  const found = new Map<string, z.ZodType>();
  for (const context of CONTEXTS) {
    const events = (contracts[context] as { events?: Record<string, contracts.EventContract<z.ZodType>> }).events;
    for (const event of Object.values(events ?? {})) found.set(event.subject, event.data);
  }
  for (const service of SERVICES) {
    const audit = contracts.auditEvent(service);
    found.set(audit.subject, audit.data);
  }
  return [...found]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([subject, data]) => ({
      name: `events/${subject}`,
      schema: asJsonSchema(data),
    }));
}

/** Every zod schema in a context's `internal` (its internal API's requests and answers; `paths` are not). */
export function internalSchemas(): NamedSchema[] {
  const out: NamedSchema[] = [];
  for (const context of CONTEXTS) {
    const internal = (contracts[context] as { internal?: Record<string, unknown> }).internal ?? {};
    for (const [name, value] of Object.entries(internal).sort(([a], [b]) => a.localeCompare(b))) {
      if (value instanceof z.ZodType) out.push({ name: `internal/${context}.${name}`, schema: asJsonSchema(value) });
    }
  }
  return out;
}
