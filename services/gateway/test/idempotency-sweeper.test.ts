import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { startNeighbour, startService, type Neighbour, type TestService } from '@register/testkit';
import type { Context } from '../src/context';
import { idempotencySweeper } from '../src/idempotency/idempotency-sweeper.job';
import { start } from '../src/main';

// The gateway alone (no service behind it is needed to sweep its own table), on a database of its own.
let h: TestService<Context>;
beforeAll(async () => {
  h = await startService(start, { name: 'gateway' });
});
afterAll(async () => h?.close());

const record = (key: string, expiresIn: string) =>
  sql`INSERT INTO idempotency_record (caller_hash, method, path, idempotency_key, state, locked_until, expires_at)
      VALUES ('c', 'PUT', '/api/v1/admin/flags/x', ${key}, 'done', now(), now() + ${expiresIn}::interval)`.execute(
    h.context.db,
  );

describe('the idempotency sweeper', () => {
  it('when kept answers are past their 24 h, then a pass deletes them and keeps the live ones', async () => {
    await record('expired-1', '-1 minute');
    await record('expired-2', '-1 day');
    await record('live', '23 hours');
    const sweeper = idempotencySweeper(h.context);

    sweeper.start();
    await sweeper.idle();
    await sweeper.stop();

    const keys = await h.context.db
      .selectFrom('idempotency_record')
      .select('idempotency_key')
      .orderBy('idempotency_key')
      .execute();
    expect(keys.map((k) => k.idempotency_key)).toEqual(['live']);
  });
});

describe('Idempotency-Key expiry (ADR 0013: a kept answer lives 24 hours)', () => {
  // The gateway's clock is the context's: set here, so "24 hours later" takes no 24 hours.
  let now = Date.now();
  let reference: Neighbour;
  let gateway: TestService<Context>;
  beforeAll(async () => {
    reference = await startNeighbour('reference');
    gateway = await startService(start, {
      name: 'gateway',
      env: { REFERENCE_URL: reference.url },
      override: (ctx: Context) => ({ ...ctx, clock: { now: () => new Date(now) } }),
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await reference?.close();
  });

  const put = (key: string, enabled: boolean) =>
    fetch(`${gateway.url}/api/v1/admin/flags/herregistratie-aanvragen`, {
      method: 'PUT',
      headers: {
        'X-Subject': '900000003',
        'X-Role': 'admin',
        'content-type': 'application/json',
        'Idempotency-Key': key,
      },
      body: JSON.stringify({ enabled }),
    });

  it(
    'when 24 hours have passed on the gateway clock, then the key is free again: ' +
      'another body runs instead of 422; a millisecond before, the first answer still holds',
    async () => {
      const key = randomUUID();
      expect((await put(key, true)).status).toBe(204);

      now += 24 * 3600_000 - 1;
      expect((await put(key, false)).status).toBe(422);
      now += 2;
      const later = await put(key, false);
      expect([later.status, later.headers.get('idempotent-replayed')]).toEqual([204, null]);

      // And a sweep at that time removes what has expired.
      now += 24 * 3600_000 + 1;
      const sweeper = idempotencySweeper(gateway.context);
      sweeper.start();
      await sweeper.idle();
      await sweeper.stop();
      expect(
        await gateway.context.db
          .selectFrom('idempotency_record')
          .select('idempotency_key')
          .where('idempotency_key', '=', key)
          .execute(),
      ).toEqual([]);
      expect((await put(randomUUID(), true)).status).toBe(204);
    },
  );
});
