import { eventually } from '@register/testkit';
import { JobLoop } from '../src/job-loop';
import { createLogger } from '../src/logger';

// The outbox relay wakes on every commit's NOTIFY (kickSoon). With NATS down each of its passes fails; the loop then
// backs off, and a notification must not bring the retry forward, or every commit runs (and logs) a failing pass.
const logger = createLogger('job-loop-test', 'silent');
const INTERVAL_MS = 100;
/** The back-off after the first failed pass: the interval doubled. */
const FIRST_BACKOFF_MS = 2 * INTERVAL_MS;

/** A loop whose every pass fails; `started` holds when each pass began. `hold` keeps a pass running until released. */
function failingLoop(hold?: () => Promise<void>): { loop: JobLoop; started: number[] } {
  const started: number[] = [];
  const loop = new JobLoop({
    name: 'failing',
    logger,
    batchSize: 10,
    intervalMs: INTERVAL_MS,
    pass: async () => {
      started.push(performance.now());
      await hold?.();
      throw new Error('the bus is down');
    },
  });
  return { loop, started };
}

const passes = (started: number[], n: number) => eventually(async () => (started.length >= n ? true : undefined));

describe('a job loop that backs off after a failed pass', () => {
  it('when work is notified during the back-off, then the retry still waits the whole back-off', async () => {
    const { loop, started } = failingLoop();
    loop.start();
    try {
      await passes(started, 1);
      await loop.idle();
      for (let i = 0; i < 20; i++) loop.kickSoon(1);
      await passes(started, 2);
      expect(started[1]! - started[0]!).toBeGreaterThanOrEqual(FIRST_BACKOFF_MS - 1);
    } finally {
      await loop.stop();
    }
  });

  it('when work is notified while the failing pass runs, then the retry still waits the whole back-off', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const { loop, started } = failingLoop(() => (started.length === 1 ? held : Promise.resolve()));
    loop.start();
    try {
      await passes(started, 1);
      loop.kickSoon(1);
      const failedAt = performance.now();
      release();
      await passes(started, 2);
      expect(started[1]! - failedAt).toBeGreaterThanOrEqual(FIRST_BACKOFF_MS - 1);
    } finally {
      await loop.stop();
    }
  });
});
