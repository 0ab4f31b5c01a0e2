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

export class SimStore {
  readonly zaken = new Map<string, ZaakRecord>();
  readonly statussen = new Map<string, StatusRecord>();
  readonly rollen = new Map<string, ChildRecord>();
  readonly zaakinformatieobjecten = new Map<string, ChildRecord>();
  readonly documenten = new Map<string, DocumentRecord>();
  readonly objectinformatieobjecten = new Map<string, ObjectRelationRecord>();
  readonly requests: RequestLogEntry[] = [];
  readonly notifications: NotificationLogEntry[] = [];
  /** Emits 'request' (RequestLogEntry) and 'notification' (NotificationLogEntry): tests wait on these instead of sleeping. */
  readonly events = new EventEmitter();
  private readonly identificatieCounters = new Map<string, number>();

  /** Open Zaak's generated identificatie when a client sends none: `ZAAK-2024-0000000001`. */
  nextIdentificatie(prefix: 'ZAAK' | 'DOCUMENT', year: string): string {
    const next = (this.identificatieCounters.get(prefix) ?? 0) + 1;
    this.identificatieCounters.set(prefix, next);
    return `${prefix}-${year}-${String(next).padStart(10, '0')}`;
  }

  childrenOf<T extends { zaakUuid: string }>(records: Map<string, T>, zaakUuid: string): T[] {
    return [...records.values()].filter((record) => record.zaakUuid === zaakUuid);
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
    for (const map of [this.zaken, this.statussen, this.rollen, this.zaakinformatieobjecten, this.documenten, this.objectinformatieobjecten]) map.clear();
    this.requests.length = 0;
    this.notifications.length = 0;
    this.identificatieCounters.clear();
  }
}
