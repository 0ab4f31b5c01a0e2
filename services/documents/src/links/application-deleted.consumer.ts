import { z } from 'zod';
import { applications } from '@register/contracts';
import { DurableConsumer, type Job } from '@register/service-kit';
import type { Context } from '../context';
import { deleteApplicationDocumentsOf } from './delete-application-documents';

const deleted = applications.events.deleted;
const DeletedEvent = z.object({ type: z.literal(deleted.type), data: deleted.data });

/**
 * The durable consumer of the applications' `application.deleted`, as a job of the service: the case's
 * documents are removed before the ack, so a crash or a redelivery loses nothing. Named `consumer`: the
 * readiness check of that name is false while it pulls no messages.
 */
export function applicationDeletedConsumer(ctx: Context): Job {
  const consumer = new DurableConsumer({
    events: ctx.events,
    durable: ctx.config.APPLICATION_EVENTS_CONSUMER,
    filter: deleted.subject,
    logger: ctx.logger.child({ subsystem: 'application-events' }),
    handle: async (_subject, payload) => {
      const event = DeletedEvent.safeParse(payload);
      if (!event.success) return 'malformed';
      await deleteApplicationDocumentsOf(ctx, event.data.data.applicationId);
      return 'handled';
    },
  });
  return {
    name: 'consumer',
    start: () => consumer.start(),
    stop: () => consumer.stop(),
    ready: () => consumer.isRunning(),
  };
}
