import { applications, eventEnvelope } from '@register/contracts';
import { DurableConsumer, type Job } from '@register/service-kit';
import type { Context } from '../context';
import { createCaseBrief } from './create-brief';

const decided = eventEnvelope(applications.events.decided.data);

/**
 * The durable consumer of `application.decided`, as a job of the service: the case's brief is written (or
 * found) before the ack, so a crash, a NATS restart or a redelivery loses nothing and doubles nothing.
 * Named `decisions-consumer`: its readiness check is false while it pulls no messages.
 */
export function decidedConsumer(ctx: Context): Job {
  const consumer = new DurableConsumer({
    events: ctx.events,
    durable: ctx.config.APPLICATION_EVENTS_CONSUMER,
    filter: applications.events.decided.subject,
    logger: ctx.logger.child({ subsystem: 'decisions-consumer' }),
    ...ctx.redelivery,
    handle: async (_subject, payload) => {
      const event = decided.safeParse(payload);
      if (!event.success) return 'malformed';
      await createCaseBrief(ctx, event.data.data);
      return 'handled';
    },
  });
  return {
    name: 'decisions-consumer',
    start: () => consumer.start(),
    stop: () => consumer.stop(),
    ready: () => consumer.isRunning(),
  };
}
