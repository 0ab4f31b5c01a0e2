import { sql } from 'kysely';
import { eventually, uniqueSubject } from '@register/testkit';
import type { MirrorContext } from '../src/case-mirror/mirror-case';
import { MirrorWorkers } from '../src/case-mirror/mirror-pass';
import { as } from './support/neighbours-system';
import { mirrored, startMirrorSystem, submitIntake, type MirrorSystem } from './support/mirror-system';

// ADR 0273: the mirror yields to the requests. The service's own mirror loop looks once at its start and then only
// after an hour, so the passes here are the test's; it counts as busy above 5 requests a second.
let system: MirrorSystem;
beforeAll(async () => {
  system = await startMirrorSystem({ env: { ZGW_MIRROR_POLL_INTERVAL_MS: '3600000', ZGW_MIRROR_YIELD_RPS: '5' } });
}, 120_000);
afterAll(() => system.close());

const context = () => system.apps.context as MirrorContext;

async function states(referenties: string[]) {
  const { rows } = await sql<{ referentie: string; state: string; attempts: number }>`
    SELECT referentie, state, attempts FROM case_mirrors WHERE referentie = ANY(${referenties}::text[])`.execute(
    system.apps.db,
  );
  return rows;
}

describe('the mirror under load (ADR 0273)', () => {
  it(
    'when the service is busy with requests, then a pass takes one case and leaves the others owed; once it is ' +
      'not, a pass takes every case still owed and each is mirrored',
    async () => {
      let busy = true;
      const ctx = context();
      const workers = new MirrorWorkers({ ...ctx, mirror: { ...ctx.mirror, busy: () => busy } }, 'pending', 16);
      const referenties: string[] = [];
      for (let i = 0; i < 3; i++) referenties.push((await submitIntake(system, uniqueSubject(), 0)).referentie);

      expect(await workers.pass()).toBe(0);
      expect((await states(referenties)).filter((r) => r.attempts > 0)).toHaveLength(1);
      await workers.idle();
      const afterOne = await states(referenties);
      expect(afterOne.map((r) => r.state).sort()).toEqual(['done', 'pending', 'pending']);

      // A busy pass waits for the case under way before it takes the next: still one at a time.
      expect(await workers.pass()).toBe(0);
      await workers.idle();
      expect((await states(referenties)).filter((r) => r.state === 'done')).toHaveLength(2);

      busy = false;
      expect(await workers.pass()).toBe(1);
      await workers.idle();
      expect((await states(referenties)).every((r) => r.state === 'done')).toBe(true);
      for (const referentie of referenties) await mirrored(system, referentie);
    },
  );

  it(
    'when the service answers more requests a second than ZGW_MIRROR_YIELD_RPS, then the mirror counts it busy, ' +
      'and not once the requests stop',
    async () => {
      const mirror = context().mirror;
      const subject = uniqueSubject();
      // The first test's requests have gone out of the last second.
      await eventually(() => Promise.resolve(mirror.busy() ? undefined : true));
      // Bursts of 20 requests until the last second holds more than 5 (a slow machine may spread one burst wider).
      const busyAfterBurst = async () => {
        await Promise.all(
          Array.from({ length: 20 }, () => as.practitioner(system, subject).get('/api/v1/applications')),
        );
        return mirror.busy() ? true : undefined;
      };
      expect(await eventually(busyAfterBurst)).toBe(true);
      await eventually(() => Promise.resolve(mirror.busy() ? undefined : true));
    },
  );
});
