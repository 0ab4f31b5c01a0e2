import SwaggerParser from '@apidevtools/swagger-parser';
import { DESCRIPTION_FILE } from './index';

// The second validator beside the NL API Design Rules lint (npm run lint:api): the description is valid OpenAPI 3.1.
SwaggerParser.validate(DESCRIPTION_FILE).then(
  (api) =>
    process.stdout.write(
      `swagger-parser: ${DESCRIPTION_FILE} is valid (${Object.keys(api.paths ?? {}).length} paths)\n`,
    ),
  (err: unknown) => {
    process.stderr.write(`swagger-parser: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
