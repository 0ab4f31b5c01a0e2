import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { PROCESSING_PREFIX } from '@register/contracts';
import { DEAD_LETTER_PREFIX } from '@register/service-kit';
import { eventually, natsUrl } from '@register/testkit';
import { startSystem, users, type TestSystem } from './support/system';
import { call, submitIntake } from './support/through-gateway';

// ADR 0015 / issue 11: no event on the stream carries a subject (BSN), a name or a register number.
// A practitioner's whole path runs through the gateway (create, upload, submit, besluit, the letter, an admin
// delete), then every message of the system's own stream (ADR 0160) is read back, headers and payload.

let sys: TestSystem;
beforeAll(async () => {
  sys = await startSystem();
}, 120_000);
afterAll(async () => sys?.close(), 60_000);

/** A 9-digit subject that appears nowhere else in this run (the eleven-test is not needed for an intake). */
const subject = `7${String(Date.now()).slice(-6)}${String(Math.floor(Math.random() * 90) + 10)}`;

/** Keys that would name a person in an event's payload. */
const PERSONAL_KEYS = new Set([
  'owner',
  'subject',
  'bsn',
  'registernummer',
  'naam',
  'name',
  'achternaam',
  'voornamen',
  'geboortedatum',
  'email',
  'adres',
  'address',
]);

function personalKeysIn(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => personalKeysIn(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [
    ...(PERSONAL_KEYS.has(k.toLowerCase()) ? [`${path}.${k}`] : []),
    ...personalKeysIn(v, `${path}.${k}`),
  ]);
}

/**
 * A message's personal keys. A dead letter names the NATS subject its event had in `subject`: that value must be
 * one of ours, and the event it carries (a JSON text) is read too.
 */
function personalKeysOfMessage(natsSubject: string, raw: string): string[] {
  const payload = JSON.parse(raw) as Record<string, unknown>;
  if (natsSubject.startsWith(PROCESSING_PREFIX)) return personalKeysOfProcessingRecord(payload);
  if (!natsSubject.startsWith(`${DEAD_LETTER_PREFIX}.`)) return personalKeysIn(payload);
  const { subject: eventSubject, event, ...envelope } = payload;
  return [
    ...(typeof eventSubject === 'string' && /^register(\.[a-z0-9_-]+)+$/.test(eventSubject)
      ? []
      : ['.subject (not a NATS subject of ours)']),
    ...personalKeysIn(envelope),
    ...personalKeysIn(typeof event === 'string' ? jsonOrNull(event) : event, '.event'),
  ];
}

/**
 * A processing record (Logboek Dataverwerkingen, ADR 0181): the standard's `name` is the operation (a route pattern
 * or a job step), never a person's, and its data subject is a pseudonym; every other key is read as anywhere.
 */
function personalKeysOfProcessingRecord(payload: Record<string, unknown>): string[] {
  const { name, attributes, ...record } = (payload['data'] ?? {}) as Record<string, unknown>;
  const subject = (attributes as Record<string, unknown> | undefined)?.['dpl.core.data_subject_id'];
  return [
    ...(typeof name === 'string' && /^((GET|POST|PUT|DELETE) \/[A-Za-z0-9/:_.-]*|[a-z][a-z -]*)$/.test(name)
      ? []
      : ['.data.name (not an operation)']),
    ...(typeof subject === 'string' && /^[0-9a-f]{64}$/.test(subject) ? [] : ['.data.attributes (no pseudonym)']),
    ...personalKeysIn({ ...payload, data: { ...record, attributes } }),
  ];
}

/**
 * A dead letter keeps whatever its consumer could not handle, JSON or not (its text is searched for the subject
 * anyway).
 */
function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

describe('events carry no personal data (read from the stream)', () => {
  it(
    'when a practitioner applies, is decided on, gets a letter and the case is deleted, ' +
      'then no message of the stream holds the subject or a personal field',
    async () => {
      const { id, referentie } = await submitIntake(sys.gateway, subject);
      const besluit = await call(sys.gateway, 'POST', `/api/v1/beoordeling/${id}/besluit`, users.beoordelaar, {
        besluit: 'afwijzen',
        toelichting: 'Het diploma is niet erkend.',
      });
      expect(besluit.status).toBe(200);
      // The letter of this case appears (letters consumed application.decided and asked for the case context).
      const brief = await eventually(async () => {
        const res = await call(
          sys.gateway,
          'GET',
          `/api/v1/brief?referentie=${encodeURIComponent(referentie)}`,
          users.drafter,
        );
        return res.status === 200 ? res.body : undefined;
      }, 30_000);
      expect(JSON.stringify(brief)).not.toContain(subject);
      const deleted = await call(sys.gateway, 'DELETE', `/api/v1/admin/cases/${id}`, users.admin);
      expect(deleted.status).toBe(204);
      await sys.auditSettled(['applications', 'documents', 'letters']);

      const nc = await connect({ servers: natsUrl(), name: 'events-privacy-test' });
      const findings: string[] = [];
      const subjects = new Set<string>();
      try {
        const jsm = await jetstreamManager(nc);
        const { stream, prefix } = sys.events;
        const info = await jsm.streams.info(stream);
        for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
          const message = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
          if (!message) continue; // removed (max age) or never stored
          subjects.add(message.subject.slice(prefix.length));
          const raw = new TextDecoder().decode(message.data);
          const headers = message.header
            ? [...message.header.keys()].map((k) => `${k}: ${message.header!.values(k).join(',')}`).join('\n')
            : '';
          if (raw.includes(subject) || headers.includes(subject))
            findings.push(`${message.subject}#${seq} contains the subject`);
          for (const key of personalKeysOfMessage(message.subject.slice(prefix.length), raw))
            findings.push(`${message.subject}#${seq} has ${key}`);
        }
      } finally {
        await nc.close();
      }
      // The path above put these on the stream, so the scan read real events of it.
      expect([...subjects]).toEqual(
        expect.arrayContaining([
          'register.applications.submitted',
          'register.applications.decided',
          'register.applications.deleted',
          'register.audit.applications',
        ]),
      );
      expect(findings).toEqual([]);
    },
  );
});
