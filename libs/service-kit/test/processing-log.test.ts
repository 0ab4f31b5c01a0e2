import { sql } from 'kysely';
import { ProcessingRecordData, VERWERKINGSACTIVITEITEN } from '@register/contracts';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { freePort, startNatsServer } from '@register/embedded';
import { createTestDatabase, natsUrl, testEvents, type TestDatabase } from '@register/testkit';
import { createDatabase, type Database } from '../src/database';
import { createLogger } from '../src/logger';
import type { WithOutbox } from '../src/outbox';
import { connectEvents, type NatsEvents } from '../src/nats';
import {
  logProcessing,
  processingLog,
  processingRecordOf,
  pseudonymOf,
  type ProcessingStep,
} from '../src/processing-log';
import { SpanKind, inSpan, installTraceContext, traceContextOf } from '../src/telemetry/trace-context';

// As runService does: the active trace follows async calls.
beforeAll(() => installTraceContext());

const SECRET = 'processing-log-test-secret-0123456789abcdef';
const step = (over: Partial<ProcessingStep> = {}): ProcessingStep => ({
  activity: 'aanvragen',
  subject: '999990019',
  door: 'zelf',
  name: 'POST /api/v1/applications/:id/submit',
  start: new Date('2026-11-26T10:00:00.000Z'),
  end: new Date('2026-11-26T10:00:00.250Z'),
  ...over,
});

describe('the pseudonym of the data subject (ADR 0181)', () => {
  it(
    'when one BSN is pseudonymised twice under one secret, ' +
      'then it is the same HMAC-SHA256 hex; another secret gives another',
    () => {
      const a = pseudonymOf('999990019', SECRET);
      expect(a).toMatch(/^[0-9a-f]{64}$/);
      expect(pseudonymOf('999990019', SECRET)).toBe(a);
      expect(pseudonymOf('999990019', `${SECRET}-other`)).not.toBe(a);
      expect(pseudonymOf('999990020', SECRET)).not.toBe(a);
      expect(a).not.toContain('999990019');
    },
  );
});

describe('a processing record in the fields of Logboek Dataverwerkingen', () => {
  it(
    'when a step runs in a request span, then its record has ' +
      'the standard fields and types, in that trace under that span',
    async () => {
      const parent = traceContextOf('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
      const record = await inSpan('request', SpanKind.SERVER, parent, async () => processingRecordOf(step(), SECRET));
      expect(Object.keys(record).sort()).toEqual(
        ['attributes', 'end_time', 'name', 'parent_span_id', 'span_id', 'start_time', 'status', 'trace_id'].sort(),
      );
      expect(record.trace_id).toBe('0af7651916cd43dd8448eb211c80319c');
      expect(record.parent_span_id).toMatch(/^[0-9a-f]{16}$/);
      expect(record.span_id).toMatch(/^[0-9a-f]{16}$/);
      expect(record.span_id).not.toBe(record.parent_span_id);
      expect(record).toMatchObject({
        name: 'POST /api/v1/applications/:id/submit',
        status: 'Ok',
        start_time: '2026-11-26T10:00:00.000Z',
        end_time: '2026-11-26T10:00:00.250Z',
        attributes: {
          'dpl.core.processing_activity_id': VERWERKINGSACTIVITEITEN.find((a) => a.id.endsWith('/aanvragen'))?.id,
          'dpl.core.data_subject_id': pseudonymOf('999990019', SECRET),
          'dpl.core.data_subject_id_type': 'BSN',
          'register.door': 'zelf',
        },
      });
      expect(ProcessingRecordData.safeParse(record).success).toBe(true);
    },
  );

  it(
    'when a step fails after a foreign call came in, ' +
      'then the record is an Error with exception.* and foreign_operation.*',
    () => {
      const record = processingRecordOf(
        step({
          error: new TypeError('bad state'),
          foreignTraceparent: '00-11111111111111111111111111111111-2222222222222222-01',
        }),
        SECRET,
      );
      expect(record.status).toBe('Error');
      expect(record.parent_span_id).toBeNull();
      expect(record.trace_id).toMatch(/^[0-9a-f]{32}$/);
      expect(record.attributes).toMatchObject({
        'exception.type': 'TypeError',
        'exception.message': 'bad state',
        'dpl.core.foreign_operation.trace_id': '11111111111111111111111111111111',
        'dpl.core.foreign_operation.span_id': '2222222222222222',
      });
      expect(ProcessingRecordData.safeParse(record).success).toBe(true);
    },
  );
});

describe('logProcessing through the outbox', () => {
  let tdb: TestDatabase;
  let database: Database<WithOutbox>;
  beforeAll(async () => {
    tdb = await createTestDatabase('ldv');
    database = createDatabase<WithOutbox>(tdb.url, createLogger('test', 'silent'));
    await sql`CREATE TABLE outbox (id uuid PRIMARY KEY, subject text NOT NULL, envelope jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(), attempts int NOT NULL DEFAULT 0)`.execute(database.db);
  });
  afterAll(async () => {
    await database.close();
    await tdb.drop();
  });

  it('when the write that logged rolls back, then no record is written; when it commits, exactly one', async () => {
    await expect(
      database.db.transaction().execute(async (trx) => {
        await logProcessing(trx, 'applications', SECRET, step(), 'corr-rollback');
        throw new Error('the write fails');
      }),
    ).rejects.toThrow('the write fails');
    const none = await database.db.selectFrom('outbox').selectAll().execute();
    expect(none).toEqual([]);

    const record = await database.db
      .transaction()
      .execute((trx) => logProcessing(trx, 'applications', SECRET, step(), 'corr-commit'));
    const rows = await database.db.selectFrom('outbox').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.subject).toBe('register.processing.applications');
    expect(rows[0]?.envelope.data).toEqual(record);
    expect(JSON.stringify(rows[0]?.envelope)).not.toContain('999990019');
  });

  describe('a read, which has no transaction to join', () => {
    const logger = createLogger('processing-log-test', 'silent');
    const steps = (subjects: string[]) => ({ ...step(), subjects });
    const outboxIds = async () =>
      (await database.db.selectFrom('outbox').select('id').execute()).map((r) => r.id).sort();
    beforeEach(async () => {
      await database.db.deleteFrom('outbox').execute();
    });

    it(
      'when the stream acknowledges, then its records are in the stream, ' + 'one per subject, and none in the outbox',
      async () => {
        const events = await connectEvents(natsUrl(), 'processing-log-test', logger, {
          name: testEvents().stream,
          prefix: testEvents().prefix,
        });
        try {
          const service = `reads${Date.now()}`;
          await processingLog(service, SECRET, events).writeRead(database.db, steps(['999990019', '999990020']));
          const subject = `${events.prefix}register.processing.${service}`;
          const stored = await events.jsm.streams.info(events.stream, { subjects_filter: subject });
          expect(stored.state.subjects?.[subject]).toBe(2);
          expect(await outboxIds()).toEqual([]);
        } finally {
          await events.close();
        }
      },
    );

    it(
      'when the stream does not answer, ' + 'then the read resolves with its records in the outbox, one per subject',
      async () => {
        const dir = mkdtempSync(path.join(os.tmpdir(), 'processing-log-'));
        const nats = await startNatsServer(dir, await freePort());
        let events: NatsEvents | undefined;
        try {
          events = await connectEvents(nats.url, 'processing-log-test', logger);
          await nats.stop();
          await processingLog('applications', SECRET, events).writeRead(database.db, steps(['999990019', '999990020']));
          const rows = await database.db.selectFrom('outbox').selectAll().execute();
          expect(rows.map((r) => r.subject)).toEqual([
            'register.processing.applications',
            'register.processing.applications',
          ]);
          expect(rows.map((r) => r.envelope.id).sort()).toEqual(rows.map((r) => r.id).sort());
          expect(
            rows.map((r) => (r.envelope.data as ProcessingRecordData).attributes['dpl.core.data_subject_id']).sort(),
          ).toEqual([pseudonymOf('999990019', SECRET), pseudonymOf('999990020', SECRET)].sort());
        } finally {
          await events?.nc.close();
          rmSync(dir, { recursive: true, force: true });
        }
      },
    );
  });
});
