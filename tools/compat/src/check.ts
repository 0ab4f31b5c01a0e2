// npm run check:compat: the live API description and contract schemas against the frozen v1.0.0 (ADR 0225).
import { readFileSync } from 'node:fs';
import { FROZEN_DESCRIPTION, LIVE_DESCRIPTION, frozenNames, frozenSchema, liveSchemas } from './baseline';
import { runGate } from './gate';

const frozenSchemas = frozenNames().map((name) => ({ name, schema: frozenSchema(name)! }));
const result = runGate({
  frozenDescription: readFileSync(FROZEN_DESCRIPTION, 'utf8'),
  liveDescription: readFileSync(LIVE_DESCRIPTION, 'utf8'),
  frozenSchemas,
  liveSchemas: liveSchemas(),
});
if (!result.ok) {
  process.stderr.write(`check:compat: breaking changes against v1.0.0\n\n${result.breaking.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`check:compat: compatible with v1.0.0 (description and ${frozenSchemas.length} schemas)\n`);
