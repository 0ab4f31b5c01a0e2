import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderEnvExample } from './env-example';
import { ENV_EXAMPLE_FILE, GENERATED_FILE, catalogFromBuiltServices } from './sources';

// `npm run env:update`: the settings list the launcher passes on, and .env.example, from the built schemas.
const catalog = catalogFromBuiltServices();
writeFileSync(GENERATED_FILE, `${JSON.stringify({ settings: catalog }, null, 2)}\n`);
writeFileSync(ENV_EXAMPLE_FILE, renderEnvExample(catalog));
process.stdout.write(
  `${catalog.length} settings: ${path.relative(process.cwd(), GENERATED_FILE)}` +
    `, ${path.relative(process.cwd(), ENV_EXAMPLE_FILE)}\n`,
);
