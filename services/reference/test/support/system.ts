import type { Clock, Events } from '@register/service-kit';
import { startService, type TestService } from '@register/testkit';
import { start } from '../../src/main';
import type { Context } from '../../src/context';

export interface ReferenceSystem extends TestService<Context> {
  events: Events;
}

/**
 * The reference service as it runs in production (its own `runService`), on a database of its own and the real NATS.
 */
export async function startReferenceSystem(clock?: Clock): Promise<ReferenceSystem> {
  const service = await startService(start, {
    name: 'reference',
    ...(clock ? { override: (ctx: Context) => ({ ...ctx, clock }) } : {}),
  });
  return { ...service, events: service.context.events as Events };
}
