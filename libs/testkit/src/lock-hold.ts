import pg from 'pg';
import { eventually } from './core';

export interface LockHold {
  /** Resolves once at least `n` other sessions of the database wait for a lock (on this hold, or queued behind it). */
  waiting(n?: number): Promise<void>;
  /** Rolls the holding transaction back: whoever waited goes on. */
  release(): Promise<void>;
}

/**
 * A lock a test holds on a service's database in a transaction of its own (`lock`: a `LOCK TABLE …` or a
 * `SELECT … FOR UPDATE`): the barrier that keeps racing writes in flight together, or the hold that keeps a
 * service in the middle of its work while the test does something.
 */
export async function holdLock(databaseUrl: string, lock: string, values: unknown[] = []): Promise<LockHold> {
  const holder = new pg.Client({ connectionString: databaseUrl });
  await holder.connect();
  await holder.query('BEGIN');
  await holder.query(lock, values);
  const pid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  let released = false;
  return {
    async waiting(n = 1) {
      // A session of its own: inside the holder's transaction pg_stat_activity stays the snapshot it first read.
      const probe = new pg.Client({ connectionString: databaseUrl });
      await probe.connect();
      try {
        await eventually(async () => {
          const { rows } = await probe.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND pid <> $1 AND wait_event_type = 'Lock'`,
            [pid],
          );
          return rows[0]!.n >= n ? true : undefined;
        }, 30_000);
      } finally {
        await probe.end();
      }
    },
    async release() {
      if (released) return;
      released = true;
      await holder.query('ROLLBACK');
      await holder.end();
    },
  };
}
