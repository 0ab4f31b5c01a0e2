import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@register/embedded';
import { resolveInfrastructure } from '@register/launcher';
import { DESCRIPTION_FILE, TYPES_FILE, generateTypes, liveDescription } from './index';

// `npm run api:update`: starts the system (DATABASE_URL / NATS_URL or the embedded defaults), writes its
// merged description to libs/api-types/openapi.json and the portals' types beside it.
async function main(): Promise<void> {
  const ports = { EMBEDDED_PG_PORT: String(await freePort()), EMBEDDED_S3_PORT: String(await freePort()) };
  const infra = await resolveInfrastructure(
    { ...ports, ...process.env },
    path.join(os.tmpdir(), 'register-api-update'),
  );
  try {
    writeFileSync(DESCRIPTION_FILE, await liveDescription(infra, `api_${randomBytes(4).toString('hex')}`));
    writeFileSync(TYPES_FILE, generateTypes(DESCRIPTION_FILE));
    process.stdout.write(`wrote ${DESCRIPTION_FILE} and ${TYPES_FILE}\n`);
  } finally {
    await infra.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
