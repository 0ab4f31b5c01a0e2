import { z } from 'zod';

const text = (max: number) => z.string().min(1).max(max);

/**
 * A ZGW notification (Notificaties API 1.0 webhook receiver): ADR 0011 refuses a body that is not an
 * object or lacks one of the six required members; the lengths are the standard's (URLs bounded at 1000).
 */
export const Notificatie = z
  .object({
    kanaal: text(50),
    hoofdObject: text(1000).meta({ description: 'URL of the main object (the zaak)' }),
    resource: text(100),
    resourceUrl: text(1000),
    actie: text(100),
    aanmaakdatum: text(64).meta({ format: 'date-time' }),
    kenmerken: z.record(z.string(), z.string().max(1000)).nullish(),
  })
  .meta({ id: 'Notificatie' });
export type Notificatie = z.output<typeof Notificatie>;
