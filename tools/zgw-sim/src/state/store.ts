import { EventEmitter } from 'node:events';
import type { Instant } from './instants';

// In-memory state: a restart forgets every zaak, document and logged request.

export type Representation = Record<string, unknown>;

export interface ZaakRecord {
  uuid: string;
  url: string;
  /** The stored fields of the Zaak answer; status, rollen and the like are derived when it is read. */
  fields: Representation;
}

export interface StatusRecord {
  uuid: string;
  url: string;
  zaakUuid: string;
  datumStatusGezet: Instant;
  fields: Representation;
}

export interface ChildRecord {
  uuid: string;
  url: string;
  zaakUuid: string;
  fields: Representation;
}

export interface DocumentRecord {
  uuid: string;
  url: string;
  fields: Representation;
  content: Buffer;
}

export interface ObjectRelationRecord {
  uuid: string;
  url: string;
  fields: Representation;
}

export interface RequestLogEntry {
  at: string;
  method: string;
  path: string;
  operationId?: string;
  /** The HTTP status answered, or what a fault did instead of answering. */
  status: number | 'refused' | 'reset';
  /** With a `reset` fault: the status the lost answer had. */
  lostStatus?: number;
  /** The verified claims; absent when the token was missing or refused. */
  claims?: Record<string, unknown>;
  faultId?: string;
}

export interface NotificationLogEntry {
  at: string;
  body: Representation;
  outcome: number | 'failed';
}

/**
 * A map of records by uuid with an index of their uuids by key: what a lookup by zaak or by identificatie
 * reads instead of scanning every record (the mirror's bench fills the store by thousands). A record's keys
 * must not change while it is stored (none of the simulator's operations changes them).
 */
export class IndexedMap<T> extends Map<string, T> {
  private readonly index = new Map<string, Set<string>>();

  constructor(private readonly keysOf: (record: T) => readonly string[]) {
    super();
  }

  override set(uuid: string, record: T): this {
    const previous = super.get(uuid);
    if (previous !== undefined) this.unindex(uuid, previous);
    super.set(uuid, record);
    for (const key of this.keysOf(record)) {
      let uuids = this.index.get(key);
      if (!uuids) this.index.set(key, (uuids = new Set()));
      uuids.add(uuid);
    }
    return this;
  }

  override delete(uuid: string): boolean {
    const previous = super.get(uuid);
    if (previous !== undefined) this.unindex(uuid, previous);
    return super.delete(uuid);
  }

  override clear(): void {
    this.index.clear();
    super.clear();
  }

  /** The records with this key, in the order they were stored. */
  by(key: string): T[] {
    return [...(this.index.get(key) ?? [])].map((uuid) => super.get(uuid)!);
  }

  private unindex(uuid: string, record: T): void {
    for (const key of this.keysOf(record)) {
      const uuids = this.index.get(key);
      uuids?.delete(uuid);
      if (uuids?.size === 0) this.index.delete(key);
    }
  }
}

/** The uniqueness key of a zaak or a document (zrc-002, drc-002): identificatie within the bronorganisatie. */
export const identificatieKey = (identificatie: unknown, bronorganisatie: unknown): string =>
  `identificatie:${JSON.stringify([identificatie, bronorganisatie])}`;
/** The key of a zaak's deelzaken: its URL as their `hoofdzaak`. */
export const hoofdzaakKey = (zaakUrl: string): string => `hoofdzaak:${zaakUrl}`;
const byZaak = <T extends { zaakUuid: string }>(record: T) => [record.zaakUuid];
const identified = (record: { fields: Representation }) => [
  identificatieKey(record.fields['identificatie'], record.fields['bronorganisatie']),
];

export class SimStore {
  readonly zaken = new IndexedMap<ZaakRecord>((zaak) => [
    ...identified(zaak),
    ...(typeof zaak.fields['hoofdzaak'] === 'string' ? [hoofdzaakKey(zaak.fields['hoofdzaak'])] : []),
  ]);
  readonly statussen = new IndexedMap<StatusRecord>(byZaak);
  readonly rollen = new IndexedMap<ChildRecord>(byZaak);
  readonly zaakinformatieobjecten = new IndexedMap<ChildRecord>(byZaak);
  readonly documenten = new IndexedMap<DocumentRecord>(identified);
  readonly objectinformatieobjecten = new Map<string, ObjectRelationRecord>();
  readonly requests: RequestLogEntry[] = [];
  readonly notifications: NotificationLogEntry[] = [];
  /**
   * Emits 'request' (RequestLogEntry) and 'notification' (NotificationLogEntry): tests wait on these instead of
   * sleeping.
   */
  readonly events = new EventEmitter();
  private readonly identificatieCounters = new Map<string, number>();

  /** Open Zaak's generated identificatie when a client sends none: `ZAAK-2024-0000000001`. */
  nextIdentificatie(prefix: 'ZAAK' | 'DOCUMENT', year: string): string {
    const next = (this.identificatieCounters.get(prefix) ?? 0) + 1;
    this.identificatieCounters.set(prefix, next);
    return `${prefix}-${year}-${String(next).padStart(10, '0')}`;
  }

  childrenOf<T extends { zaakUuid: string }>(records: IndexedMap<T>, zaakUuid: string): T[] {
    return records.by(zaakUuid);
  }

  logRequest(entry: RequestLogEntry): void {
    this.requests.push(entry);
    this.events.emit('request', entry);
  }

  logNotification(entry: NotificationLogEntry): void {
    this.notifications.push(entry);
    this.events.emit('notification', entry);
  }

  /** Forgets every zaak, document and log line; the catalogue stays. */
  reset(): void {
    for (const map of [
      this.zaken,
      this.statussen,
      this.rollen,
      this.zaakinformatieobjecten,
      this.documenten,
      this.objectinformatieobjecten,
    ])
      map.clear();
    this.requests.length = 0;
    this.notifications.length = 0;
    this.identificatieCounters.clear();
  }
}
