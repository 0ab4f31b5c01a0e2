import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  eventually,
  natsUrl,
  removeBucket,
  startNeighbour,
  systemEvents,
  testS3,
  type Neighbour,
} from '@register/testkit';
import { startLettersSystem, type LettersSystem, type LettersOptions } from './system';

/** The letters service with its real neighbours: applications (and what it needs) and the gateway in front. */
export interface NeighboursSystem {
  letters: LettersSystem;
  gateway: Neighbour;
  applications: Neighbour;
  documents: Neighbour;
  reference: Neighbour;
  nats: string;
  /** The system's own stream and subject prefix (ADR 0160): every event its services published, no other's. */
  events: { stream: string; prefix: string };
  close(): Promise<void>;
}

/**
 * Every neighbour is the real service, spawned from its build (`npx turbo run build` after changing one).
 * Each system has its own databases, bucket, stream and durable consumers (ADR 0160), so test files run side by
 * side.
 */
export async function startNeighboursSystem(
  options: { natsUrl?: string; pdf?: LettersOptions['pdf'] } = {},
): Promise<NeighboursSystem> {
  const nats = options.natsUrl ?? natsUrl();
  const s3 = testS3();
  const tmpDir = mkdtempSync(path.join(os.tmpdir(), 'letters-docs-'));
  const events = systemEvents(`letters_${randomUUID().replace(/-/g, '').slice(0, 10)}`);
  const bucket = `letters-${randomUUID().slice(0, 8)}`;
  // Small pools: a system is five services, and test files run side by side on one PostgreSQL.
  const common = { NATS_URL: nats, DB_POOL_MAX: '4' };
  const started: Array<{ close(): Promise<void> }> = [];
  const cleanUp = async () => {
    for (const s of started.reverse()) await s.close().catch(() => undefined);
    await events.remove(nats).catch(() => undefined);
    await removeBucket(bucket).catch(() => undefined);
    rmSync(tmpDir, { recursive: true, force: true });
  };
  const track = <T extends { close(): Promise<void> }>(s: T): T => (started.push(s), s);
  try {
    const reference = track(await startNeighbour('reference', { env: { ...events.env.reference, ...common } }));
    const documents = track(
      await startNeighbour('documents', {
        env: {
          ...events.env.documents,
          ...common,
          S3_ENDPOINT: s3.endpoint,
          S3_ACCESS_KEY: s3.accessKey,
          S3_SECRET_KEY: s3.secretKey,
          S3_BUCKET: bucket,
          UPLOAD_TMP_DIR: tmpDir,
        },
      }),
    );
    const applications = track(
      await startNeighbour('applications', {
        env: {
          ...events.env.applications,
          ...common,
          REFERENCE_URL: reference.url,
          DOCUMENTS_URL: documents.url,
          LINK_POLL_INTERVAL_MS: '200',
        },
      }),
    );
    const letters = track(
      await startLettersSystem({
        natsUrl: nats,
        applicationsUrl: applications.url,
        documentsUrl: documents.url,
        events,
        durable: events.consumers.letters,
        ...(options.pdf ? { pdf: options.pdf } : {}),
      }),
    );
    // The gateway is ready only when every service behind it is; the audit service is not needed here, so its
    // address is the reference service's (it answers the readiness probe; no test calls the audit routes).
    const gateway = track(
      await startNeighbour('gateway', {
        env: {
          ...events.env.gateway,
          ...common,
          LETTERS_URL: letters.url,
          APPLICATIONS_URL: applications.url,
          DOCUMENTS_URL: documents.url,
          REFERENCE_URL: reference.url,
          AUDIT_URL: reference.url,
        },
      }),
    );
    const own = { stream: events.stream, prefix: events.prefix };
    return { letters, gateway, applications, documents, reference, nats, events: own, close: cleanUp };
  } catch (err) {
    // Nothing a failed start began may outlive the test run.
    await cleanUp();
    throw err;
  }
}

export interface Reply {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** A portal's calls through the gateway with the identity headers of ADR 0001. */
export function portal(system: NeighboursSystem, headers: Record<string, string>) {
  const call = async (
    method: string,
    url: string,
    body?: unknown,
    extra: Record<string, string> = {},
  ): Promise<Reply> => {
    const res = await fetch(`${system.gateway.url}${url}`, {
      method,
      headers: { ...headers, ...extra, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: parseJson(text), text, headers: res.headers };
  };
  return {
    get: (url: string, extra?: Record<string, string>) => call('GET', url, undefined, extra),
    put: (url: string, body: unknown, extra?: Record<string, string>) => call('PUT', url, body, extra),
    post: (url: string, body?: unknown, extra?: Record<string, string>) => call('POST', url, body, extra),
    bytes: async (method: string, url: string) => {
      const res = await fetch(`${system.gateway.url}${url}`, { method, headers });
      return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
    },
  };
}

export const drafter = (subject = '900000001') => ({ 'X-Subject': subject, 'X-Role': 'drafter' });
export const approver = (subject = '900000002') => ({ 'X-Subject': subject, 'X-Role': 'approver' });
export const admin = (subject = '900000003') => ({ 'X-Subject': subject, 'X-Role': 'admin' });
export const beoordelaar = { 'X-Medewerker': 'mw-letters', 'X-Rollen': 'beoordelaar' };

/** A new practitioner's intake (digital diploma, enough hours: no documents needed), submitted, not decided. */
export async function submitCase(
  system: NeighboursSystem,
  subject = `9${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
): Promise<{ id: string; referentie: string }> {
  const { created, submitted } = await submit(system, subject);
  return { id: created.body.id, referentie: submitted.body.referentie };
}

async function submit(system: NeighboursSystem, subject: string): Promise<{ created: Reply; submitted: Reply }> {
  const me = portal(system, { 'X-Subject': subject });
  const created = await me.post('/api/v1/applications', { type: 'intake' });
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.text}`);
  const submitted = await me.post(`/api/v1/applications/${created.body.id}/submit`, {
    diplomaHerkomst: 'digitaal',
    uren: 3000,
  });
  if (submitted.status !== 200) throw new Error(`submit answered ${submitted.status}: ${submitted.text}`);
  return { created, submitted };
}

/**
 * A case decided through the applications service as the portals do it: a new practitioner's intake (digital
 * diploma, enough hours: no documents needed), submitted, and a besluit by a case handler.
 */
export async function decideCase(
  system: NeighboursSystem,
  besluit: 'toekennen' | 'afwijzen' | 'buiten-behandeling',
  subject = `9${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
): Promise<{ id: string; referentie: string }> {
  const { created, submitted } = await submit(system, subject);
  const toelichting = besluit === 'toekennen' ? 'Voldoet aan de eisen.' : 'Onvoldoende aangetoond.';
  const decided = await portal(system, beoordelaar).post(`/api/v1/beoordeling/${created.body.id}/besluit`, {
    besluit,
    toelichting,
  });
  if (decided.status !== 200) throw new Error(`besluit answered ${decided.status}: ${decided.text}`);
  return { id: created.body.id, referentie: submitted.body.referentie };
}

/** Waits until letters has written the case's brief (it consumes the besluit durably). */
export async function caseBrief(
  system: NeighboursSystem,
  referentie: string,
  headers: Record<string, string> = drafter(),
): Promise<Reply> {
  return eventually(
    async () => {
      const res = await portal(system, headers).get(`/api/v1/brief?referentie=${encodeURIComponent(referentie)}`);
      return res.status === 200 ? res : undefined;
    },
    30_000,
    200,
  );
}
