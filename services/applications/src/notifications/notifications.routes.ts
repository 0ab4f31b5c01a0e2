import { applications } from '@register/contracts';
import { defineOperation } from '@register/service-kit';
import type { Context } from '../context';
import { MAX_NOTIFICATION_BYTES } from './notification-rules';
import { Notificatie } from './notifications.schemas';
import { checkDelivery, receiveNotification } from './receive-notification';

const receiveNotificatie = defineOperation({
  rule: applications.routes.notificaties,
  operationId: 'receiveNotificatie',
  summary: 'Receive a notification of the zaaksysteem',
  description:
    'The webhook Open Notificaties delivers to. `Authorization` must be the configured secret exactly ' +
    '(401 otherwise, also while none is configured), checked before anything else; ' +
    'a body over 64 KiB is 413; a body without `kanaal`, `hoofdObject`, `resource`, `resourceUrl`, ' +
    '`actie` or `aanmaakdatum` is 400. 204 and one `notificatie-ontvangen` audit row per notification ' +
    '(also `kanaal: "test"`); the same notification delivered again is answered 204 without a second row.',
  body: Notificatie,
  bodyLimit: MAX_NOTIFICATION_BYTES,
  example: {
    kanaal: 'zaken',
    hoofdObject: 'https://zaken.example.nl/zaken/api/v1/zaken/3f2b8c1e-8d4a-4c3e-9a51-0d6f1b2a7c90',
    resource: 'status',
    resourceUrl: 'https://zaken.example.nl/zaken/api/v1/statussen/0d6f1b2a-8d4a-4c3e-9a51-3f2b8c1e7c90',
    actie: 'create',
    aanmaakdatum: '2026-03-01T10:00:00Z',
    kenmerken: { bronorganisatie: '501234561' },
  },
  // The delivery's Authorization is checked before its body is read.
  load: (ctx: Context, { req }) => Promise.resolve(checkDelivery(ctx, req.headers)),
  responses: { 204: null },
  problems: [413],
  handle: async (ctx: Context, { body }) => {
    await receiveNotification(ctx, body);
    return {};
  },
});

export const notificationsRoutes = [receiveNotificatie];
