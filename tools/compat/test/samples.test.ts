import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { FROZEN_SCHEMAS, frozenNames, frozenSchema } from '../src';

// ADR 0228: the consumers' tests feed them the frozen v1.0.0 sample of every event they read. Each sample is a
// payload v1.0.0's own schema accepts, and every v1.0.0 subject has one.
const SAMPLES = path.join(FROZEN_SCHEMAS, 'samples');
const subjects = frozenNames()
  .filter((name) => name.startsWith('events/'))
  .map((name) => name.slice('events/'.length));
const sample = (subject: string) => JSON.parse(readFileSync(path.join(SAMPLES, `${subject}.json`), 'utf8')) as unknown;

describe('the frozen v1.0.0 event samples', () => {
  it('when the samples are listed, then there is exactly one per v1.0.0 event subject', () => {
    const files = readdirSync(SAMPLES).map((f) => f.replace(/\.json$/, ''));
    expect(files.sort()).toEqual([...subjects].sort());
  });

  it.each(subjects)("when the sample of %s is read with v1.0.0's frozen schema, then it is valid", (subject) => {
    const schema = z.fromJSONSchema(frozenSchema(`events/${subject}`) as Parameters<typeof z.fromJSONSchema>[0]);
    const result = schema.safeParse(sample(subject));
    expect(result.error?.issues ?? []).toEqual([]);
  });

  it("when a sample breaks its frozen schema, then v1.0.0's schema refuses it", () => {
    const schema = z.fromJSONSchema(
      frozenSchema('events/register.applications.decided') as Parameters<typeof z.fromJSONSchema>[0],
    );
    const broken = { ...(sample('register.applications.decided') as object), besluit: 'aanhouden' };
    expect(schema.safeParse(broken).success).toBe(false);
  });
});
