// npm run bench (services/applications): seeds 100 000 applications over 10 000 owners (half submitted)
// with one bulk INSERT … SELECT generate_series, then drives the service at a fixed 200 req/s for 20 s per
// route with autocannon and prints p50/p99/errors plus EXPLAIN ANALYZE of the list queries.
// Needs DATABASE_URL (an admin URL; a database applications_bench is recreated) and NATS_URL; REFERENCE_URL
// and DOCUMENTS_URL of running neighbours, or it starts the real reference and documents services itself.
// The load goes through a real gateway process (X-Subject / X-Medewerker headers); BENCH_DIRECT=1 targets
// the service itself with signed identities.
import { spawn } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import { sql } from 'kysely';
import pino from 'pino';
import { signInternalIdentity, INTERNAL_IDENTITY_HEADER } from '@register/authz';
import { createDatabase, connectEvents, FlagsClient, InternalClient, migrateToLatest, OutboxRelay } from '@register/service-kit';
import { migrations } from '../dist/migrations/index.js';
import { createApp } from '../dist/src/app.js';
import { DocumentsClient } from '../dist/src/adapters/documents-client.js';
import { ReferenceClient } from '../dist/src/adapters/reference-client.js';
import { seedDemoData } from '../dist/src/data-access/seed-demo.js';
import { DocumentLinker } from '../dist/src/domain/document-linker.js';

const SECRET = process.env.INTERNAL_IDENTITY_SECRET ?? 'bench-internal-identity-secret-0123456789abcdef';
const admin = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const logger = pino({ level: 'warn' });
const dbUrl = (name) => Object.assign(new URL(admin), { pathname: `/${name}` }).toString();

async function recreate(name) {
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await c.query(`CREATE DATABASE "${name}"`);
  await c.end();
}

const serve = (app) => new Promise((resolve) => { const s = http.createServer(app); s.keepAliveTimeout = 65_000; s.listen(0, '127.0.0.1', () => resolve({ s, url: `http://127.0.0.1:${s.address().port}` })); });

async function neighbours() {
  if (process.env.REFERENCE_URL && process.env.DOCUMENTS_URL) return { reference: process.env.REFERENCE_URL, documents: process.env.DOCUMENTS_URL };
  const ref = await import('../../reference/dist/src/app.js');
  const refMig = await import('../../reference/dist/migrations/index.js');
  const refSeed = await import('../../reference/dist/src/seed/seed.js');
  await recreate('reference_bench');
  const rdb = createDatabase(dbUrl('reference_bench'), logger);
  await migrateToLatest(rdb.db, refMig.migrations, logger);
  await refSeed.seedReference(rdb.db);
  const r = await serve(ref.createApp({ db: rdb.db, logger, clock: { now: () => new Date() }, internalSecret: SECRET, readiness: {} }));
  const { startS3rver, freePort } = await import('@register/embedded');
  const s3 = process.env.S3_ENDPOINT ? { url: process.env.S3_ENDPOINT, accessKey: process.env.S3_ACCESS_KEY, secretKey: process.env.S3_SECRET_KEY }
    : await startS3rver(mkdtempSync(path.join(os.tmpdir(), 'bench-s3-')), await freePort(), 'documents');
  const { documentsConfigSchema } = await import('../../documents/dist/src/config.js');
  const { startDocuments } = await import('../../documents/dist/src/service.js');
  await recreate('documents_bench');
  const docs = await startDocuments(documentsConfigSchema.parse({
    PORT: '0', DATABASE_URL: dbUrl('documents_bench'), NATS_URL: natsUrl, INTERNAL_IDENTITY_SECRET: SECRET, LOG_LEVEL: 'warn',
    S3_ENDPOINT: s3.url, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey, S3_BUCKET: 'documents', UPLOAD_TMP_DIR: mkdtempSync(path.join(os.tmpdir(), 'bench-spool-')),
  }), logger);
  const d = await serve(docs.app);
  return { reference: r.url, documents: d.url };
}

async function seed(db) {
  const t0 = Date.now();
  // 10 000 owners × 10 applications; even g submitted (Ingediend); odd g a Concept for the first two per
  // owner (one intake, one herregistratie: the one-Concept-per-type index) and decided after that.
  await sql`INSERT INTO applications (id, owner, type, status_tag, referentie, document_ids, created_at, updated_at, submitted_at)
    SELECT gen_random_uuid(), 'b' || lpad((g % 10000)::text, 8, '0'),
      CASE WHEN g <= 10000 THEN 'intake' WHEN g <= 20000 THEN 'herregistratie' WHEN g % 4 < 2 THEN 'intake' ELSE 'herregistratie' END,
      CASE WHEN g % 2 = 0 THEN 'Ingediend' WHEN g <= 20000 THEN 'Concept' ELSE 'Toegekend' END,
      CASE WHEN g % 2 = 0 OR g > 20000 THEN 'AV-2026-B' || lpad(g::text, 6, '0') END,
      '[]'::jsonb, now() - (g || ' seconds')::interval, now(), CASE WHEN g % 2 = 0 OR g > 20000 THEN now() - (g || ' seconds')::interval END
    FROM generate_series(1, 100000) g`.execute(db);
  await sql`ANALYZE applications`.execute(db);
  console.log(`seeded 100000 applications in ${Date.now() - t0} ms`);
}

const signedHeaders = (identity) => ({ [INTERNAL_IDENTITY_HEADER]: signInternalIdentity(SECRET, { identity, service: null, correlationId: null }, Date.now(), 3600) });
const userHeaders = (identity) => (identity.practitioner ? { 'x-subject': identity.practitioner.subject } : { 'x-medewerker': identity.caseHandler.medewerker, 'x-rollen': identity.caseHandler.rollen.join(',') });
let headers = signedHeaders;

/** The real gateway (built dist) as a separate process in front of the service under test. */
async function startGateway(targets) {
  const { freePort } = await import('@register/embedded');
  const port = await freePort();
  await recreate('gateway_bench');
  const child = spawn(process.execPath, [path.join(import.meta.dirname, '..', '..', 'gateway', 'dist', 'src', 'main.js')], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PORT: String(port), DATABASE_URL: dbUrl('gateway_bench'), NATS_URL: natsUrl, INTERNAL_IDENTITY_SECRET: SECRET, LOG_LEVEL: 'warn',
      APPLICATIONS_URL: targets.applications, REFERENCE_URL: targets.reference, DOCUMENTS_URL: targets.documents },
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (await fetch(`${url}/health`).then((r) => r.ok, () => false)) return { url, child };
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('gateway did not start');
}
const owner = (s) => ({ practitioner: { subject: s, role: 'drafter' }, caseHandler: null, adminSeam: false });
const beoordelaar = { practitioner: null, caseHandler: { medewerker: 'bench', rollen: ['beoordelaar'] }, adminSeam: false };

function run(name, opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: 20, duration: 20, overallRate: 200, ...opts }, (err, r) => {
      if (err) return reject(err);
      const errors = r.errors + r.timeouts + r.non2xx;
      console.log(`${name.padEnd(34)} p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  requests ${r.requests.total}  errors ${errors}`);
      resolve(r);
    });
  });
}

async function main() {
  const n = await neighbours();
  await recreate('applications_bench');
  const database = createDatabase(dbUrl('applications_bench'), logger, { max: 20 });
  await migrateToLatest(database.db, migrations, logger);
  await seedDemoData(database.db);
  await seed(database.db);
  const events = await connectEvents(natsUrl, 'applications-bench', logger);
  const internal = (baseUrl) => new InternalClient({ baseUrl, secret: SECRET, caller: 'applications' });
  const documents = new DocumentsClient(internal(n.documents));
  const linker = new DocumentLinker({ db: database.db, documents, logger });
  const relay = new OutboxRelay({ db: database.db, pool: database.pool, js: events.js, logger });
  await relay.start();
  linker.start();
  const app = createApp({ config: { scholingThreshold: 2080, internalSecret: SECRET }, db: database.db, logger, clock: { now: () => new Date() },
    documents, reference: new ReferenceClient(internal(n.reference)), flags: new FlagsClient(internal(n.reference), logger), linker, readiness: {} });
  const { s, url: direct } = await serve(app);
  const gateway = process.env.BENCH_DIRECT === '1' ? null : await startGateway({ applications: direct, ...n });
  const base = gateway?.url ?? direct;
  headers = gateway ? userHeaders : signedHeaders;
  console.log(`target ${base}${gateway ? ' (a gateway process in front of the service)' : ' (service directly)'}`);

  for (const [label, q] of [
    ['own list', sql`EXPLAIN ANALYZE SELECT * FROM applications WHERE owner = 'b00000042' ORDER BY created_at DESC, id DESC LIMIT 1001`],
    ['werkvoorraad', sql`EXPLAIN ANALYZE SELECT * FROM applications WHERE status_tag = 'Ingediend' ORDER BY submitted_at, id LIMIT 101`],
  ]) {
    const { rows } = await q.execute(database.db);
    console.log(`\nEXPLAIN ANALYZE ${label}:\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
  }
  console.log('');

  // Fresh drafts for the submit run: 200 req/s × 20 s, one Concept intake each.
  await sql`INSERT INTO applications (id, owner, type, status_tag, document_ids, created_at, updated_at)
    SELECT gen_random_uuid(), 's' || lpad(g::text, 8, '0'), 'intake', 'Concept', '[]'::jsonb, now(), now() FROM generate_series(1, 5000) g`.execute(database.db);
  const drafts = (await sql`SELECT id, owner FROM applications WHERE owner LIKE 's%'`.execute(database.db)).rows;
  let i = 0;

  await run('GET /health', { url: `${base}/health` });
  await run('GET /api/v1/applications (owner)', { url: `${base}/api/v1/applications`, headers: headers(owner('b00000042')) });
  await run('GET /api/v1/werkvoorraad?limit=100', { url: `${base}/api/v1/werkvoorraad?limit=100`, headers: headers(beoordelaar) });
  await run('POST /api/v1/applications/:id/submit', {
    url: base,
    requests: [{
      method: 'POST',
      setupRequest: (req) => {
        const d = drafts[i++ % drafts.length];
        return { ...req, path: `/api/v1/applications/${d.id}/submit`, headers: { ...headers(owner(d.owner)), 'content-type': 'application/json' }, body: JSON.stringify({ diplomaHerkomst: 'digitaal', uren: 3000 }) };
      },
    }],
  });
  gateway?.child.kill('SIGTERM');
  s.close();
  s.closeAllConnections();
  await linker.stop();
  await relay.stop();
  await events.close();
  await database.close();
  process.exit(0);
}

main().catch((err) => { console.error(err); process.exit(1); });
