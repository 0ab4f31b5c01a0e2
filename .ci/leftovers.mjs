#!/usr/bin/env node
// What a test run may leave behind on this machine, before and after: entries of the temp directory,
// PostgreSQL databases, NATS streams and durable consumers (decisions: a run leaves nothing).
//   node .ci/leftovers.mjs snapshot <file>   records the state
//   node .ci/leftovers.mjs compare <file>    fails (exit 1) when anything is there that was not
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';

const require = createRequire(new URL('../libs/testkit/package.json', import.meta.url));
const pg = require('pg');
const { connect } = require('@nats-io/transport-node');
const { jetstreamManager } = require('@nats-io/jetstream');

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

async function state() {
  const tmp = readdirSync(os.tmpdir()).map((name) => `tmp:${name}`);
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  const databases = (await client.query('SELECT datname FROM pg_database')).rows.map((r) => `database:${r.datname}`);
  await client.end();
  const nc = await connect({ servers: NATS_URL, name: 'ci-leftovers' });
  const jsm = await jetstreamManager(nc);
  const nats = [];
  for await (const stream of jsm.streams.list()) {
    nats.push(`stream:${stream.config.name}`);
    for await (const consumer of jsm.consumers.list(stream.config.name)) {
      if (consumer.config.durable_name) nats.push(`consumer:${stream.config.name}/${consumer.config.durable_name}`);
    }
  }
  await nc.close();
  return [...tmp, ...databases, ...nats].sort();
}

const [command, file] = process.argv.slice(2);
if (!file || (command !== 'snapshot' && command !== 'compare')) {
  console.error('usage: leftovers.mjs snapshot|compare <file>');
  process.exit(2);
}
const now = await state();
if (command === 'snapshot') {
  writeFileSync(file, JSON.stringify(now, null, 1));
  console.log(`leftovers: ${now.length} entries recorded before the tests`);
} else {
  const before = new Set(JSON.parse(readFileSync(file, 'utf8')));
  const left = now.filter((entry) => !before.has(entry));
  if (left.length > 0) {
    console.error(`leftovers: the test runs left ${left.length} thing(s) behind:\n  ${left.join('\n  ')}`);
    process.exit(1);
  }
  console.log('leftovers: none (temp directory, databases, streams and consumers as before the tests)');
}
