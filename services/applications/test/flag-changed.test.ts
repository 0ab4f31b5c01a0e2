import { randomUUID } from 'node:crypto';
import { reference as referenceContract } from '@register/contracts';
import {
  FlagsClient,
  InternalClient,
  connectEvents,
  createLogger,
  newEvent,
  type NatsEvents,
} from '@register/service-kit';
import { TEST_SECRET, V1_VARIANTS, eventually, natsUrl, systemEvents, v1Event } from '@register/testkit';
import { startReference } from './support/neighbours';

// ADR 0228: the applications service reads flag-changed through its flags client, which keeps the flags for
// 30 s and drops them on the event. The client listens on a subject prefix of this file's own, so only the event
// published here reaches it; the reference service publishes its own under the test run's prefix.
const FLAG = 'herregistratie-aanvragen';
const own = systemEvents(`flags_${randomUUID().slice(0, 8)}`);
const logger = createLogger('applications-flags-test', 'silent');
let reference: Awaited<ReturnType<typeof startReference>>;
let events: NatsEvents;
beforeAll(async () => {
  reference = await startReference();
  events = await connectEvents(natsUrl(), 'applications-flags-test', logger, {
    name: own.stream,
    prefix: own.prefix,
  });
}, 60_000);
afterAll(async () => {
  await events?.close();
  await reference?.close();
  await own.remove(natsUrl());
});

describe('the flags client and the v1.0.0 flag-changed event', () => {
  it.each(V1_VARIANTS)(
    'when the v1.0.0 sample of flag-changed arrives %s, then the client reads the flags again at once',
    async (variant) => {
      const flags = new FlagsClient(
        new InternalClient({ baseUrl: reference.url, secret: TEST_SECRET, caller: 'applications' }),
        logger,
      );
      flags.listen(events);
      try {
        await reference.setFlag(FLAG, true);
        expect(await flags.isEnabled(FLAG)).toBe(true);
        await reference.setFlag(FLAG, false);
        // Kept: no event has reached the client yet.
        expect(await flags.isEnabled(FLAG)).toBe(true);
        const flagChanged = referenceContract.events.flagChanged;
        const { data, envelope } = v1Event(flagChanged.subject, variant);
        expect(data).toMatchObject({ key: FLAG, enabled: false });
        const event = { ...newEvent(flagChanged.type, data, `v1-${randomUUID()}`), ...envelope };
        await events.publish(flagChanged.subject, JSON.stringify(event), event.id);
        await eventually(async () => ((await flags.isEnabled(FLAG)) === false ? true : undefined));
      } finally {
        flags.close();
        await reference.setFlag(FLAG, true);
      }
    },
  );
});
