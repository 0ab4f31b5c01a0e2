import type { Logger } from 'pino';
import type { Representation, SimStore, ZaakRecord } from '../state/store';

export interface NotifyTarget {
  url: string;
  /** The exact Authorization header value the webhook expects. */
  authorization: string;
}

export interface Notifier {
  /** Queues an Open Notificaties-style message on kanaal `zaken`; delivery never delays the ZGW answer. */
  zaken(resource: string, actie: 'create' | 'update' | 'destroy', resourceUrl: string, zaak: ZaakRecord): void;
  /** Resolves once every queued message was delivered or failed. */
  drain(): Promise<void>;
}

const DELIVERY_TIMEOUT_MS = 5000;

export function createNotifier(
  target: NotifyTarget | undefined,
  store: SimStore,
  logger: Logger,
  now: () => Date,
): Notifier {
  // One at a time, in order: a subscriber sees the zaak before its status, as with Open Notificaties.
  let queue: Promise<void> = Promise.resolve();
  return {
    zaken(resource, actie, resourceUrl, zaak) {
      if (!target) return;
      const body: Representation = {
        kanaal: 'zaken',
        hoofdObject: zaak.url,
        resource,
        resourceUrl,
        actie,
        aanmaakdatum: now().toISOString(),
        kenmerken: {
          bronorganisatie: zaak.fields['bronorganisatie'],
          zaaktype: zaak.fields['zaaktype'],
          vertrouwelijkheidaanduiding: zaak.fields['vertrouwelijkheidaanduiding'],
        },
      };
      queue = queue.then(() => deliver(target, body, store, logger, now));
    },
    drain() {
      return queue;
    },
  };
}

async function deliver(
  target: NotifyTarget,
  body: Representation,
  store: SimStore,
  logger: Logger,
  now: () => Date,
): Promise<void> {
  let outcome: number | 'failed';
  try {
    const response = await fetch(target.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: target.authorization },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    await response.arrayBuffer();
    outcome = response.status;
  } catch (err) {
    outcome = 'failed';
    logger.warn(
      { err: err instanceof Error ? err.message : String(err), resource: body['resource'] },
      'notification not delivered',
    );
  }
  store.logNotification({ at: now().toISOString(), body, outcome });
}
