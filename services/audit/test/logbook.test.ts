import { sql } from 'kysely';
import { newEvent, processingRecordOf, type ProcessingStep } from '@register/service-kit';
import {
  TEST_LDV_SECRET,
  UNKNOWN_FIELD,
  asUser,
  caseHandler,
  eventually,
  practitioner,
  uniqueSubject,
} from '@register/testkit';
import { consumedThrough, startAuditSystem, type AuditSystem } from './support/system';

let h: AuditSystem;
beforeAll(async () => {
  h = await startAuditSystem();
});
afterAll(async () => h.close());

const inzage = (headers: Record<string, string>, query = '') =>
  fetch(`${h.url}/api/v1/me/verwerkingen${query}`, { headers });

function step(subject: string, over: Partial<ProcessingStep> = {}): ProcessingStep {
  const at = new Date('2026-11-26T10:00:00.000Z');
  return {
    activity: 'aanvragen',
    subject,
    door: 'zelf',
    name: 'POST /api/v1/applications',
    start: at,
    end: at,
    ...over,
  };
}

/** Publishes a record as a service's outbox relay does (`Nats-Msg-Id` = the envelope id). */
async function publishRecord(
  s: ProcessingStep,
  envelope = newEvent('processing', processingRecordOf(s, TEST_LDV_SECRET), null),
) {
  const ack = await h.events.js.publish(h.events.prefix + h.processingSubject, JSON.stringify(envelope), {
    msgID: envelope.id,
  });
  return { envelope, seq: ack.seq };
}

describe('the logbook and GET /api/v1/me/verwerkingen (ADR 0181)', () => {
  it(
    'when a record is delivered twice, ' + 'then it is stored once and its practitioner reads it in the inzage shape',
    async () => {
      const bsn = uniqueSubject();
      const { envelope } = await publishRecord(step(bsn));
      // The same record again under another message id: the stream does not dedupe it, the logbook does.
      const again = await h.events.js.publish(h.events.prefix + h.processingSubject, JSON.stringify(envelope), {
        msgID: `${envelope.id}-again`,
      });
      await eventually(() => consumedThrough(h.events, h.processingDurable, again.seq));

      const res = await inzage(asUser(practitioner(bsn)));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([
        {
          verwerkingsactiviteit: {
            id: 'https://register.example.nl/verwerkingsactiviteiten/aanvragen',
            naam: 'Aanvragen van een (her)registratie',
          },
          tijdstip: '2026-11-26T10:00:00.000Z',
          status: 'Ok',
          door: 'zelf',
        },
      ]);
      const stored = await h.db.selectFrom('logbook').selectAll().where('record_id', '=', envelope.id).execute();
      expect(stored).toHaveLength(1);
    },
  );

  it(
    'when several records concern a practitioner, ' +
      'then they come newest first and paged; another practitioner sees none',
    async () => {
      const bsn = uniqueSubject();
      const other = uniqueSubject();
      const t = (m: number) => new Date(Date.UTC(2026, 10, 26, 11, m));
      await publishRecord(step(bsn, { end: t(1), door: 'medewerker', activity: 'beoordelen' }));
      await publishRecord(step(bsn, { end: t(3), door: 'systeem', activity: 'zaakspiegeling' }));
      const last = await publishRecord(step(bsn, { end: t(2), error: new Error('refused') }));
      await eventually(() => consumedThrough(h.events, h.processingDurable, last.seq));

      const first = await inzage(asUser(practitioner(bsn)), '?limit=2');
      const page1 = (await first.json()) as Array<{ tijdstip: string; door: string; status: string }>;
      expect(page1.map((r) => [r.tijdstip, r.door, r.status])).toEqual([
        ['2026-11-26T11:03:00.000Z', 'systeem', 'Ok'],
        ['2026-11-26T11:02:00.000Z', 'zelf', 'Error'],
      ]);
      const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.get('link') ?? '')?.[1];
      expect(next).toBeDefined();
      const page2 = (await (await fetch(`${h.url}${next}`, { headers: asUser(practitioner(bsn)) })).json()) as Array<{
        door: string;
      }>;
      expect(page2.map((r) => r.door)).toEqual(['medewerker']);
      expect(await (await inzage(asUser(practitioner(other)))).json()).toEqual([]);
    },
  );

  it('when an admin or a case handler asks, then it is a 403 problem', async () => {
    for (const who of [practitioner(uniqueSubject(), 'admin'), caseHandler('m-logbook')]) {
      const res = await inzage(asUser(who));
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
  });

  it('when a bad limit is asked, then it is a 400 problem naming it', async () => {
    const res = await inzage(asUser(practitioner(uniqueSubject())), '?limit=0');
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('limit');
  });

  it('when records are stored, then no column of the logbook holds the BSN itself', async () => {
    const bsn = uniqueSubject();
    const { seq } = await publishRecord(step(bsn));
    await eventually(() => consumedThrough(h.events, h.processingDurable, seq));
    const { rows } = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM logbook WHERE logbook::text LIKE ${`%${bsn}%`}`.execute(h.db);
    expect(rows[0]?.n).toBe(0);
    const { rows: all } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM logbook`.execute(h.db);
    expect(all[0]?.n).toBeGreaterThan(0);
  });

  it('when a record carries fields this version does not know, then it is stored as its known fields say', async () => {
    const bsn = uniqueSubject();
    const record = processingRecordOf(step(bsn), TEST_LDV_SECRET);
    const later = {
      ...record,
      ...UNKNOWN_FIELD,
      attributes: { ...record.attributes, 'dpl.core.later_attribute': 'x' },
    };
    const envelope = { ...newEvent('processing', later, null), ...UNKNOWN_FIELD };
    const { seq } = await publishRecord(step(bsn), envelope as typeof envelope & ReturnType<typeof newEvent>);
    await eventually(() => consumedThrough(h.events, h.processingDurable, seq));
    const stored = await h.db.selectFrom('logbook').selectAll().where('record_id', '=', envelope.id).execute();
    expect(stored).toEqual([
      expect.objectContaining({
        trace_id: record.trace_id,
        processing_activity_id: record.attributes['dpl.core.processing_activity_id'],
        data_subject_id: record.attributes['dpl.core.data_subject_id'],
        door: 'zelf',
      }),
    ]);
    expect(JSON.stringify(stored)).not.toContain('later_attribute');
  });

  it('when a malformed record arrives, then nothing is stored and the consumer goes on', async () => {
    const bad = newEvent('processing', { trace_id: 'nope' }, null);
    const ack = await h.events.js.publish(h.events.prefix + h.processingSubject, JSON.stringify(bad), {
      msgID: bad.id,
    });
    await eventually(() => consumedThrough(h.events, h.processingDurable, ack.seq));
    expect(await h.db.selectFrom('logbook').selectAll().where('record_id', '=', bad.id).execute()).toEqual([]);
  });
});
