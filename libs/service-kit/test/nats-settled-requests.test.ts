import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { natsUrl, testEvents } from '@register/testkit';
import { createLogger } from '../src/logger';
import { connectEvents, type NatsEvents } from '../src/nats';
import { settledRequestsEndWithoutAnError } from '../src/nats-settled-requests';

// The library's errors module, as its request code reads it (`errors_1.RequestError` at each use): a counting
// subclass in its place shows how many request errors the client builds. Reached by file, beside its entry point.
type ErrorsModule = { RequestError: new (message?: string, options?: ErrorOptions) => Error };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the library's own module object, not a copy
const errors = require(path.join(path.dirname(require.resolve('@nats-io/nats-core')), 'errors.js')) as ErrorsModule;
const OriginalRequestError = errors.RequestError;
let built = 0;

const logger = createLogger('nats-settled-requests-test', 'silent');
let events: NatsEvents;

beforeAll(async () => {
  events = await connectEvents(natsUrl(), 'nats-settled-requests-test', logger, {
    name: testEvents().stream,
    prefix: testEvents().prefix,
  });
  errors.RequestError = class CountedRequestError extends OriginalRequestError {
    constructor(message?: string, options?: ErrorOptions) {
      super(message, options);
      built += 1;
    }
  };
});
afterAll(async () => {
  errors.RequestError = OriginalRequestError;
  await events.close();
});

/** The requests the connection still waits on (its request table): an ended request leaves it. */
const waitingRequests = () =>
  (events.nc as unknown as { protocol: { muxSubscriptions: { size(): number } } }).protocol.muxSubscriptions.size();

describe('a NATS request the server answered ends without an error (ADR 0266)', () => {
  it(
    'when 50 JetStream publishes are acknowledged, then each resolves with its sequence, ' +
      'no request error is built and none is left waiting',
    async () => {
      expect(settledRequestsEndWithoutAnError()).toBe(true);
      built = 0;
      const subject = `${testEvents().prefix}register.test.settled-requests`;
      const acks = [];
      for (let i = 0; i < 50; i++) acks.push(await events.js.publish(subject, `{"i":${i}}`, { msgID: randomUUID() }));
      expect(acks.map((a) => a.seq)).toEqual([...acks.map((a) => a.seq)].sort((a, b) => a - b));
      expect(new Set(acks.map((a) => a.seq)).size).toBe(50);
      expect(built).toBe(0);
      expect(waitingRequests()).toBe(0);
    },
  );

  it('when a request is cancelled before any answer (the connection closes), then it still rejects', async () => {
    const nc = (
      await connectEvents(natsUrl(), 'nats-settled-requests-closing', logger, {
        name: testEvents().stream,
        prefix: testEvents().prefix,
      })
    ).nc;
    const subject = `settled-requests.silent.${randomUUID()}`;
    // A responder that never answers: the request is pending when the connection closes.
    nc.subscribe(subject, { callback: () => undefined });
    await nc.flush();
    built = 0;
    const pending = nc.request(subject, 'ping', { timeout: 60_000 });
    await nc.close();
    await expect(pending).rejects.toThrow();
    expect(built).toBeGreaterThan(0);
  });

  it('when no answer comes in time, then the request rejects with a timeout and leaves the table', async () => {
    const subject = `settled-requests.slow.${randomUUID()}`;
    events.nc.subscribe(subject, { callback: () => undefined });
    await events.nc.flush();
    await expect(events.nc.request(subject, 'ping', { timeout: 50 })).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(waitingRequests()).toBe(0);
  });

  it('when nobody listens on the subject, then the request rejects as the library has it (no responders)', async () => {
    const failure = await events.nc.request(`settled-requests.nobody.${randomUUID()}`, 'ping', { timeout: 5000 }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(OriginalRequestError);
    expect((failure as { isNoResponders(): boolean }).isNoResponders()).toBe(true);
    expect(waitingRequests()).toBe(0);
  });
});
