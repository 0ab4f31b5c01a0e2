import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import {
  createTestDatabase,
  eventually,
  natsUrl,
  startNeighbour,
  startService,
  systemEvents,
  type Neighbour,
  type TestDatabase,
  type TestService,
} from '@register/testkit';
import type { Context } from '../src/context';
import { start } from '../src/main';

// issue 25 §4, ADR 0202, ADR 0263: with two copies of a service, one killed, the gateway sends an idempotent
// request whose connection failed before any answer byte once more, to the other copy, and a write whose
// connection was refused (it reached no process) too, if its body was small enough to keep.
const run = randomUUID().replace(/-/g, '').slice(0, 8);
const events = systemEvents(`retry_${run}`);
const admin = { 'X-Subject': '900000003', 'X-Role': 'admin', 'content-type': 'application/json' };
const FLAG = '/api/v1/admin/flags/herregistratie-aanvragen';

let database: TestDatabase;
const copies: Neighbour[] = [];

beforeAll(async () => {
  database = await createTestDatabase('retry_reference');
  for (let i = 0; i < 2; i++)
    copies.push(await startNeighbour('reference', { env: { ...events.env.reference }, database }));
}, 120_000);

afterAll(async () => {
  for (const copy of copies) await copy.stop();
  await database?.drop();
  await events.remove(natsUrl());
}, 60_000);

/** A gateway of its own over both copies (fresh: no copy remembered as refused, no pooled connection). */
async function gatewayWithSecondKilled(): Promise<TestService<Context>> {
  await copies[1]!.start();
  const gateway = await startService(start, {
    name: 'gateway',
    env: { REFERENCE_URL: copies.map((c) => c.url).join(','), ...events.env.gateway },
  });
  await copies[1]!.kill();
  return gateway;
}

async function statuses(gateway: TestService<Context>, requests: Array<() => RequestInit>, path: string) {
  const found: number[] = [];
  // One after the other: round robin hands the killed copy one of every two.
  for (const init of requests) found.push((await fetch(`${gateway.url}${path}`, init())).status);
  return found;
}

/** The correlation id of every flag-changed event on the system's stream. */
async function flagChanges(): Promise<string[]> {
  const nc = await connect({ servers: natsUrl() });
  try {
    const reader = await jetstream(nc).consumers.get(events.stream);
    const found: string[] = [];
    for (;;) {
      const batch = await reader.fetch({ max_messages: 500, expires: 1000 });
      let n = 0;
      for await (const m of batch) {
        n += 1;
        const envelope = JSON.parse(m.string()) as { correlationId: string | null };
        if (m.subject.endsWith('flag-changed') && envelope.correlationId) found.push(envelope.correlationId);
      }
      if (n === 0) return found;
    }
  } finally {
    await nc.close();
  }
}

describe('a request to a killed copy', () => {
  it('when one of two copies is killed, then every GET is answered by the other', async () => {
    const gateway = await gatewayWithSecondKilled();
    try {
      const get = () => ({ headers: admin });
      expect(
        await statuses(
          gateway,
          Array.from({ length: 4 }, () => get),
          '/api/v1/stamdata',
        ),
      ).toEqual([200, 200, 200, 200]);
    } finally {
      await gateway.close();
    }
  }, 60_000);

  it.each([
    ['with an Idempotency-Key', 'keyed'],
    ['without a key, its connection refused,', 'unkeyed'],
  ])(
    'when one of two copies is killed, then every write %s is done by the other, each once',
    async (_, label) => {
      const gateway = await gatewayWithSecondKilled();
      try {
        // A key of its own for each write, or none.
        const key = (): Record<string, string> => (label === 'keyed' ? { 'Idempotency-Key': randomUUID() } : {});
        const put = (enabled: boolean, n: number) => () => ({
          method: 'PUT',
          headers: { ...admin, ...key(), 'X-Correlation-Id': `${label}-${run}-${n}` },
          body: JSON.stringify({ enabled }),
        });
        expect(await statuses(gateway, [put(true, 0), put(false, 1), put(true, 2), put(false, 3)], FLAG)).toEqual([
          204, 204, 204, 204,
        ]);
        // Done once each: one flag-changed event per write on the system's stream, none twice.
        const published = await eventually(async () => {
          const found = (await flagChanges()).filter((c) => c.startsWith(`${label}-${run}-`));
          return found.length >= 4 ? found : undefined;
        }, 30_000);
        expect(published.sort()).toEqual([0, 1, 2, 3].map((n) => `${label}-${run}-${n}`));
      } finally {
        await gateway.close();
      }
    },
    60_000,
  );

  it(
    'when one of two copies is killed, then a write without a key and with a body over 64 KiB ' +
      'is not kept to be sent again: the one that met the killed copy gets 503',
    async () => {
      const gateway = await gatewayWithSecondKilled();
      try {
        // Too large for the service as well (its JSON limit): the live copy answers it with a 4xx of its own.
        const body = JSON.stringify({ enabled: true, padding: 'x'.repeat(70 * 1024) });
        const put = () => ({ method: 'PUT', headers: admin, body });
        const found = await statuses(gateway, [put, put], FLAG);
        expect(found.filter((s) => s === 503)).toEqual([503]);
        expect(found.filter((s) => s >= 400 && s < 500)).toHaveLength(1);
      } finally {
        await gateway.close();
      }
    },
    60_000,
  );
});
