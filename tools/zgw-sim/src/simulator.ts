import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import { loadContracts } from './contract/contracts';
import { CatalogiIndex } from './catalogi/catalogi.index';
import { SEED_UUIDS, seedCatalogi } from './catalogi/catalogi.seed';
import { FaultRegistry, type Fault, type FaultSpec, type HeldRequest } from './faults/faults';
import type { SimContext } from './http/operation';
import type { JwtSettings } from './http/zgw-jwt';
import { createNotifier, type NotifyTarget } from './notifications/notifier';
import { SIMULATOR_RSIN, passesElevenTest } from './state/rsin';
import { createStateView, type SimStateView } from './state/state-view';
import { SimStore } from './state/store';
import { HANDLERS } from './http/handlers';
import { createApp } from './simulator.app';

export interface ZgwSimulatorOptions {
  /** 0 or absent: a free port. */
  port?: number;
  host?: string;
  /** The HS256 secret every JWT must be signed with. */
  secret: string;
  /** When set, the only `client_id` accepted. */
  clientId?: string;
  /** Public base URL in resource URLs (behind a proxy or in a container); default http://<host>:<port>. */
  baseUrl?: string;
  /** Deliver Open Notificaties-style messages here after each zaak, status, rol and document relation. */
  notify?: NotifyTarget;
  /** The organisation's RSIN (9 digits, eleven-test); default a made-up valid one. */
  rsin?: string;
  /** Page size of the paginated lists (Open Zaak: 100). */
  pageSize?: number;
  /** Open Zaak's JWT_EXPIRY (3600) and JWT_LEEWAY (0), in seconds. */
  jwtExpirySeconds?: number;
  jwtLeewaySeconds?: number;
  /** Check every answer against the documents before sending it (default true). */
  checkResponses?: boolean;
  /**
   * Compile the validators of every served operation before listening, so no first call pays for it (default false:
   * tests start faster).
   */
  warmUp?: boolean;
  logger?: Logger;
}

export interface SimFaults {
  add(spec: FaultSpec): Fault;
  remove(id: string): boolean;
  /** Removes every fault and lets every held request go on. */
  clear(): void;
  list(): Fault[];
  /** The requests `hold` faults are holding now (of one fault, or all). */
  held(faultId?: string): HeldRequest[];
  /** Lets the held requests (of one fault, or all) go on: each is handled as usual. Returns how many. */
  release(faultId?: string): number;
  /** Resolves once the fault holds at least `count` requests. */
  waitForHeld(faultId: string, count?: number, timeoutMs?: number): Promise<HeldRequest[]>;
  /**
   * Closes the listener (and every open connection) so connects fail with ECONNREFUSED; it reopens on the same port
   * after forMs. Resolves once closed.
   */
  refuseConnections: (forMs: number) => Promise<void>;
  /** Resolves once the listener accepts connections (at once when it does). */
  listening(): Promise<void>;
}

export interface ZgwSimulator {
  url: string;
  zakenUrl: string;
  documentenUrl: string;
  catalogiUrl: string;
  zaaktypeUrl: string;
  rsin: string;
  /** The seeded catalogue by role, for tests and configuration. */
  catalogi: {
    catalogusUrl: string;
    statustypeUrls: { ingediend: string; besluitGenomen: string; afgehandeld: string };
    roltypeInitiatorUrl: string;
    informatieobjecttypeUrl: string;
    /** A second zaaktype with its own status, role and document type: a type of another zaaktype is refused. */
    otherZaaktypeUrl: string;
    otherStatustypeUrl: string;
    otherRoltypeUrl: string;
    otherInformatieobjecttypeUrl: string;
  };
  state: SimStateView;
  faults: SimFaults;
  close(): Promise<void>;
}

/** The host as it goes in a URL: a wildcard address as loopback, an IPv6 literal in brackets. */
function urlHostOf(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

function jwtSettings(options: ZgwSimulatorOptions, secret: string): JwtSettings {
  return {
    secret,
    ...(options.clientId ? { clientId: options.clientId } : {}),
    expirySeconds: options.jwtExpirySeconds ?? 3600,
    leewaySeconds: options.jwtLeewaySeconds ?? 0,
  };
}

/** The URLs of the seeded catalogue's types, for clients and tests to name them. */
function seededCatalogi(catalogiUrl: (collection: string, uuid: string) => string): ZgwSimulator['catalogi'] {
  return {
    catalogusUrl: catalogiUrl('catalogussen', SEED_UUIDS.catalogus),
    statustypeUrls: {
      ingediend: catalogiUrl('statustypen', SEED_UUIDS.statustypeIngediend),
      besluitGenomen: catalogiUrl('statustypen', SEED_UUIDS.statustypeBesluitGenomen),
      afgehandeld: catalogiUrl('statustypen', SEED_UUIDS.statustypeAfgehandeld),
    },
    roltypeInitiatorUrl: catalogiUrl('roltypen', SEED_UUIDS.roltypeInitiator),
    informatieobjecttypeUrl: catalogiUrl('informatieobjecttypen', SEED_UUIDS.informatieobjecttype),
    otherZaaktypeUrl: catalogiUrl('zaaktypen', SEED_UUIDS.otherZaaktype),
    otherStatustypeUrl: catalogiUrl('statustypen', SEED_UUIDS.otherStatustype),
    otherRoltypeUrl: catalogiUrl('roltypen', SEED_UUIDS.otherRoltype),
    otherInformatieobjecttypeUrl: catalogiUrl('informatieobjecttypen', SEED_UUIDS.otherInformatieobjecttype),
  };
}

function simFaults(registry: FaultRegistry, listener: ListenerControl): SimFaults {
  return {
    add: (spec) => registry.add(spec),
    remove: (id) => registry.remove(id),
    clear: () => registry.clear(),
    list: () => registry.list(),
    held: (faultId) => registry.held(faultId),
    release: (faultId) => registry.release(faultId),
    waitForHeld: (faultId, count, timeoutMs) => registry.waitForHeld(faultId, count, timeoutMs),
    refuseConnections: (forMs) => listener.refuse(forMs),
    listening: () => listener.listening(),
  };
}

export async function startZgwSimulator(options: ZgwSimulatorOptions): Promise<ZgwSimulator> {
  if (!options.secret) throw new Error('startZgwSimulator needs a secret');
  const rsin = options.rsin ?? SIMULATOR_RSIN;
  if (!passesElevenTest(rsin)) throw new Error(`RSIN ${rsin} does not pass the eleven-test`);
  const logger = options.logger ?? pino({ name: 'zgw-sim', level: 'warn' });
  const host = options.host ?? '127.0.0.1';
  const contracts = await loadContracts();
  if (options.warmUp) for (const contract of Object.values(contracts)) contract.warmUp(Object.keys(HANDLERS));
  const server = createServer();
  await listen(server, options.port ?? 0, host);
  const port = (server.address() as AddressInfo).port;
  const baseUrl = (options.baseUrl ?? `http://${urlHostOf(host)}:${port}`).replace(/\/+$/, '');
  const urls = {
    zaken: `${baseUrl}${contracts.zaken.basePath}`,
    documenten: `${baseUrl}${contracts.documenten.basePath}`,
    catalogi: `${baseUrl}${contracts.catalogi.basePath}`,
  };

  const store = new SimStore();
  const now = () => new Date();
  const catalogi = new CatalogiIndex(seedCatalogi(urls.catalogi, rsin));
  const notifier = createNotifier(options.notify, store, logger, now);
  const ctx: SimContext = { store, catalogi, urls, baseUrl, pageSize: options.pageSize ?? 100, notifier, now };
  const registry = new FaultRegistry();
  const state = createStateView(ctx);
  const listener = new ListenerControl(server, port, host);
  const app = createApp({
    contracts,
    ctx,
    registry,
    state,
    logger,
    checkResponses: options.checkResponses ?? true,
    jwt: jwtSettings(options, options.secret),
    refuseConnections: (forMs) => listener.refuse(forMs),
  });
  server.on('request', app);

  const catalogiUrl = (collection: string, uuid: string) => `${urls.catalogi}/${collection}/${uuid}`;
  return {
    url: baseUrl,
    zakenUrl: urls.zaken,
    documentenUrl: urls.documenten,
    catalogiUrl: urls.catalogi,
    zaaktypeUrl: catalogiUrl('zaaktypen', SEED_UUIDS.zaaktype),
    rsin,
    catalogi: seededCatalogi(catalogiUrl),
    state,
    faults: simFaults(registry, listener),
    async close() {
      registry.clear();
      await listener.close();
      await notifier.drain();
    },
  };
}

/** Closing and reopening the listener on its port, for a real ECONNREFUSED. */
class ListenerControl {
  private reopened: Promise<void> = Promise.resolve();
  private settleReopen: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly server: Server,
    private readonly port: number,
    private readonly host: string,
  ) {}

  async refuse(forMs: number): Promise<void> {
    if (this.timer || this.closed) return;
    await this.stop();
    this.reopened = new Promise((resolve, reject) => {
      this.settleReopen = resolve;
      this.timer = setTimeout(() => {
        this.timer = undefined;
        listen(this.server, this.port, this.host).then(resolve, reject);
      }, forMs);
    });
  }

  listening(): Promise<void> {
    return this.reopened;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) {
      // Refusing already: the listener is closed; it just never reopens.
      clearTimeout(this.timer);
      this.timer = undefined;
      this.settleReopen?.();
      return;
    }
    await this.stop();
  }

  private stop(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      // Keep-alive connections would otherwise go on answering.
      this.server.closeAllConnections();
    });
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}
