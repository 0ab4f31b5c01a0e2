import { createHash } from 'node:crypto';
import type { SimContext } from '../http/operation';
import { renderStatus } from '../zaken/statussen.handlers';
import { renderZaak } from '../zaken/zaak.representation';
import type { NotificationLogEntry, Representation, RequestLogEntry } from './store';

export interface ZaakView {
  zaak: Representation;
  statussen: Representation[];
  rollen: Representation[];
  zaakinformatieobjecten: Representation[];
}

export interface Counters {
  requests: number;
  byOperation: Record<string, number>;
  byStatus: Record<string, number>;
  /** Resources created through the API so far (a `reset` fault's lost answer counts: the resource exists). */
  created: Record<string, number>;
  /** What exists now (a deleted zaak no longer counts). */
  current: {
    zaken: number;
    statussen: number;
    rollen: number;
    zaakinformatieobjecten: number;
    enkelvoudiginformatieobjecten: number;
  };
  faultsApplied: number;
  notificationsDelivered: number;
  notificationsFailed: number;
}

/** Read-only views of the simulator's memory, for tests (`state`) and for `GET /_sim/state`. */
export function createStateView(ctx: SimContext) {
  const { store } = ctx;
  const zaakView = (uuid: string): ZaakView => {
    const record = store.zaken.get(uuid);
    if (!record) throw new Error(`No zaak ${uuid}`);
    return {
      zaak: renderZaak(record, store),
      statussen: store.childrenOf(store.statussen, uuid).map((status) => renderStatus(status, ctx)),
      rollen: store.childrenOf(store.rollen, uuid).map((rol) => rol.fields),
      zaakinformatieobjecten: store.childrenOf(store.zaakinformatieobjecten, uuid).map((zio) => zio.fields),
    };
  };
  return {
    zaken(): ZaakView[] {
      return [...store.zaken.keys()].map(zaakView);
    },
    zakenWithIdentificatie(identificatie: string): ZaakView[] {
      return [...store.zaken.values()]
        .filter((zaak) => zaak.fields['identificatie'] === identificatie)
        .map((zaak) => zaakView(zaak.uuid));
    },
    /** The documents without their content: its size and SHA-256 instead. */
    documenten(): Representation[] {
      return [...store.documenten.values()].map((doc) => ({
        ...doc.fields,
        contentBytes: doc.content.length,
        contentSha256: createHash('sha256').update(doc.content).digest('hex'),
      }));
    },
    documentContent(url: string): Buffer | undefined {
      return [...store.documenten.values()].find((doc) => doc.url === url)?.content;
    },
    requests(): RequestLogEntry[] {
      return store.requests.map((entry) => ({ ...entry }));
    },
    notifications(): NotificationLogEntry[] {
      return store.notifications.map((entry) => ({ ...entry }));
    },
    counters: () => countersOf(store),
    /** Forgets zaken, documents and logs (the catalogue stays). */
    reset(): void {
      store.reset();
    },
    events: store.events,
    /** Resolves with the first logged request the predicate accepts, already logged or still to come. */
    waitForRequest: (predicate: (entry: RequestLogEntry) => boolean, timeoutMs = 10_000) =>
      waitForRequest(store, predicate, timeoutMs),
  };
}

/** How many requests (by operation, status and what they created), records and notifications the memory holds. */
function countersOf(store: SimContext['store']): Counters {
  const count = (key: (entry: RequestLogEntry) => string | undefined) => {
    const totals: Record<string, number> = {};
    for (const entry of store.requests) {
      const name = key(entry);
      if (name !== undefined) totals[name] = (totals[name] ?? 0) + 1;
    }
    return totals;
  };
  return {
    requests: store.requests.length,
    byOperation: count((entry) => entry.operationId),
    byStatus: count((entry) => String(entry.status)),
    created: count((entry) =>
      entry.operationId?.endsWith('_create') && (entry.status === 201 || entry.lostStatus === 201)
        ? entry.operationId.replace(/_create$/, '')
        : undefined,
    ),
    current: {
      zaken: store.zaken.size,
      statussen: store.statussen.size,
      rollen: store.rollen.size,
      zaakinformatieobjecten: store.zaakinformatieobjecten.size,
      enkelvoudiginformatieobjecten: store.documenten.size,
    },
    faultsApplied: store.requests.filter((entry) => entry.faultId !== undefined).length,
    notificationsDelivered: store.notifications.filter(
      (entry) => typeof entry.outcome === 'number' && entry.outcome < 300,
    ).length,
    notificationsFailed: store.notifications.filter(
      (entry) => entry.outcome === 'failed' || (typeof entry.outcome === 'number' && entry.outcome >= 300),
    ).length,
  };
}

/** Resolves with the first logged request the predicate accepts, already logged or still to come. */
function waitForRequest(
  store: SimContext['store'],
  predicate: (entry: RequestLogEntry) => boolean,
  timeoutMs: number,
): Promise<RequestLogEntry> {
  const seen = store.requests.find(predicate);
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      store.events.off('request', listener);
      reject(new Error(`No matching request within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (entry: RequestLogEntry) => {
      if (!predicate(entry)) return;
      clearTimeout(timer);
      store.events.off('request', listener);
      resolve(entry);
    };
    store.events.on('request', listener);
  });
}

export type SimStateView = ReturnType<typeof createStateView>;
