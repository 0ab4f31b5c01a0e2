import { sql } from 'kysely';
import { startService, type TestService } from '@register/testkit';
import type { Context } from '../src/context';
import { idempotencySweeper } from '../src/idempotency/idempotency-sweeper';
import { start } from '../src/main';

// The gateway alone (no service behind it is needed to sweep its own table), on a database of its own.
let h: TestService<Context>;
beforeAll(async () => {
  h = await startService(start, { name: 'gateway' });
});
afterAll(async () => h?.close());

const record = (key: string, expiresIn: string) =>
  sql`INSERT INTO idempotency_record (caller_hash, method, path, idempotency_key, state, locked_until, expires_at)
      VALUES ('c', 'PUT', '/api/v1/admin/flags/x', ${key}, 'done', now(), now() + ${expiresIn}::interval)`.execute(h.context.db);

describe('the idempotency sweeper', () => {
  it('when kept answers are past their 24 h, then a pass deletes them and keeps the live ones', async () => {
    await record('expired-1', '-1 minute');
    await record('expired-2', '-1 day');
    await record('live', '23 hours');
    const sweeper = idempotencySweeper(h.context);

    sweeper.start();
    await sweeper.idle();
    await sweeper.stop();

    const keys = await h.context.db.selectFrom('idempotency_record').select('idempotency_key').orderBy('idempotency_key').execute();
    expect(keys.map((k) => k.idempotency_key)).toEqual(['live']);
  });
});
