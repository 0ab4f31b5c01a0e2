import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { freePort } from '@register/embedded';
import { auditEvent } from '@register/contracts';
import { zgwSettingsOf } from '@register/launcher';
import type { EventEnvelope } from '@register/service-kit';
import {
  asUser,
  createTestDatabase,
  eventually,
  natsUrl,
  practitioner,
  systemEvents,
  type SystemEvents,
  type TestDatabase,
} from '@register/testkit';
import { startZgwSimulator, type ZgwSimulator } from '@register/zgw-sim';
import { startApplicationsSystem, type ApplicationsSystem } from './system';
import { startDocuments, startReference } from './neighbours';
import { as, type NeighboursSystem } from './neighbours-system';
import { zgwProxy } from './zgw-proxy';

export const ZGW_SECRET = 'zgw-mirror-test-secret-0123456789abcdef';
export const ZGW_CLIENT_ID = 'register-applications';
export const NOTIFICATIES_AUTH = 'Token notificaties-test-0123456789';

export type AuditRow = EventEnvelope<{ action: string; resource: string; decision: string; role: string }>;

export interface MirrorSystem extends NeighboursSystem {
  sim: ZgwSimulator;
  /** Every call to the simulator passes it: the headers the mirror sent, and answers a test replaces. */
  proxy: Awaited<ReturnType<typeof zgwProxy>>;
  /** Audit events the applications service published (through its outbox), in order; no other system's. */
  audits(action?: string): AuditRow[];
  /** Its own stream (ADR 0160), and the settings that put a service on it. */
  events: SystemEvents;
  /** Stops the applications service and starts it again on the same database (a restart). */
  restart(): Promise<void>;
}

/**
 * The applications service with mirroring on against the ZGW simulator (in this process), its real
 * neighbours as processes, its own database and a stream of its own (ADR 0160); the reconciler's interval is
 * `reconcileMs` (default 60 s, so a divergence stays until a test heals it).
 */
export async function startMirrorSystem(
  options: { reconcileMs?: number; env?: Record<string, string>; pageSize?: number } = {},
): Promise<MirrorSystem> {
  // Resource URLs name the proxy (the simulator's baseUrl), so that every call passes it, also to a zaak's own URL.
  const proxy = await zgwProxy();
  const port = await freePort();
  const sim = await startZgwSimulator({
    secret: ZGW_SECRET,
    clientId: ZGW_CLIENT_ID,
    port,
    baseUrl: proxy.url,
    logger: pino({ level: 'silent' }),
    // Validators compiled before the first call: a first call's compile would otherwise eat into ZGW_TIMEOUT_MS.
    warmUp: true,
    ...(options.pageSize ? { pageSize: options.pageSize } : {}),
  });
  proxy.target(`http://127.0.0.1:${port}`);
  const events = systemEvents(`mirror_${randomUUID().replace(/-/g, '').slice(0, 10)}`);
  const [reference, documents] = await Promise.all([
    startReference(events.env.reference),
    startDocuments(events.env.documents),
  ]);
  const database: TestDatabase = await createTestDatabase('applications');
  const env = {
    ...zgwSettingsOf(sim, { clientId: ZGW_CLIENT_ID, secret: ZGW_SECRET, pollMs: 100 }),
    ZGW_TIMEOUT_MS: '2000',
    ZGW_RECONCILE_INTERVAL_MS: String(options.reconcileMs ?? 60_000),
    NOTIFICATIES_AUTH,
    ...events.env.applications,
    ...options.env,
  };
  const seen: AuditRow[] = [];
  const start = async (): Promise<ApplicationsSystem> => {
    const apps = await startApplicationsSystem({
      referenceUrl: reference.url,
      documentsUrl: documents.url,
      database,
      env,
    });
    apps.events.subscribe(auditEvent('applications').subject, (m) => void seen.push(JSON.parse(m.payload) as AuditRow));
    return apps;
  };
  const system: MirrorSystem = {
    sim,
    proxy,
    reference,
    documents,
    apps: await start(),
    events,
    audits: (action) => seen.filter((e) => action === undefined || e.data.action === action),
    async restart() {
      await system.apps.stop();
      system.apps = await start();
    },
    async close() {
      await system.apps.stop();
      await database.drop();
      await Promise.all([reference.close(), documents.close(), sim.close(), proxy.close()]);
      await events.remove(natsUrl());
    },
  };
  return system;
}

/** The zaak of a referentie once the mirror wrote `statussen` statuses, the initiator and `documents` relations. */
export async function mirrored(system: MirrorSystem, referentie: string, { statussen = 1, documents = 0 } = {}) {
  return eventually(async () => {
    const [view] = system.sim.state.zakenWithIdentificatie(referentie);
    return view &&
      view.statussen.length === statussen &&
      view.rollen.length === 1 &&
      view.zaakinformatieobjecten.length === documents
      ? view
      : undefined;
  });
}

/** Requests the simulator logged from now on. */
export function logFrom(system: MirrorSystem) {
  const start = system.sim.state.requests().length;
  return () => system.sim.state.requests().slice(start);
}

/** A notification as Open Notificaties delivers it, straight to the service (the gateway forwards Authorization). */
export async function notify(
  system: NeighboursSystem,
  body: unknown,
  authorization: string | null = NOTIFICATIES_AUTH,
): Promise<{ status: number; correlationId: string; body: any }> {
  const headers: Record<string, string> = { ...asUser(null), 'content-type': 'application/json' };
  if (authorization !== null) headers['authorization'] = authorization;
  const res = await fetch(`${system.apps.url}/api/v1/notificaties`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    correlationId: res.headers.get('x-correlation-id') ?? '',
    body: text ? JSON.parse(text) : null,
  };
}

/** A 9-digit subject that passes the eleven-test, so the initiator is written with `inpBsn`. */
export function bsnSubject(): string {
  for (;;) {
    const digits = Array.from({ length: 8 }, (_, i) =>
      i === 0 ? 1 + Math.floor(Math.random() * 9) : Math.floor(Math.random() * 10),
    );
    const sum = digits.reduce((t, d, i) => t + d * (9 - i), 0);
    const last = sum % 11;
    if (last <= 9) return [...digits, last].join('');
  }
}

/** A file to upload: its bytes and the name it is uploaded under. */
export interface UploadFile {
  bytes: Buffer;
  name: string;
}

/** Uploads `file` for `owner` into intake `categoryId`, straight to the documents service; its documentId. */
export async function uploadFile(
  system: NeighboursSystem,
  owner: string,
  categoryId: string,
  file: UploadFile,
): Promise<string> {
  const form = new FormData();
  form.set('wizardId', 'intake');
  form.set('categoryId', categoryId);
  form.set('file', new Blob([new Uint8Array(file.bytes)], { type: 'application/pdf' }), file.name);
  const res = await fetch(`${system.documents.url}/api/v1/uploads`, {
    method: 'POST',
    headers: asUser(practitioner(owner)),
    body: form,
  });
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { documentId: string }).documentId;
}

/**
 * A submitted intake of `subject` with `documents` digital documents (a count of the neighbour's standard PDF,
 * or these files; the first the diploma, the others overig); its referentie and id.
 */
export async function submitIntake(
  system: NeighboursSystem,
  subject: string,
  documents: number | UploadFile[] = 1,
): Promise<{
  id: string;
  referentie: string;
  docs: string[];
  submittedAt: string;
  correlationId: string;
  status: unknown;
}> {
  const me = as.practitioner(system, subject);
  const created = await me.post('/api/v1/applications', { type: 'intake' });
  if (created.status !== 201) throw new Error(`create answered ${created.status}`);
  const docs: string[] = [];
  const category = (i: number) => (i === 0 ? 'diploma' : 'overig');
  if (typeof documents === 'number')
    for (let i = 0; i < documents; i++) docs.push(await system.documents.upload(subject, 'intake', category(i)));
  else for (const [i, file] of documents.entries()) docs.push(await uploadFile(system, subject, category(i), file));
  const refs = docs.map((documentId, i) => ({ categoryId: category(i), channel: 'digitaal', documentId }));
  const body =
    docs.length > 0
      ? { diplomaHerkomst: 'handmatig', uren: 3000, documents: refs }
      : { diplomaHerkomst: 'digitaal', uren: 3000 };
  const res = await me.post(`/api/v1/applications/${created.body.id}/submit`, body);
  if (res.status !== 200) throw new Error(`submit answered ${res.status}: ${JSON.stringify(res.body)}`);
  const detail = await me.get(`/api/v1/applications/${created.body.id}`);
  return {
    id: created.body.id as string,
    referentie: res.body.referentie as string,
    docs,
    submittedAt: detail.body.submittedAt as string,
    correlationId: res.headers.get('x-correlation-id') ?? '',
    status: res.body.status,
  };
}
