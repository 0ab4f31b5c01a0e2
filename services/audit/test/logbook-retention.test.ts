import { randomUUID } from 'node:crypto';
import { pseudonymOf } from '@register/service-kit';
import { TEST_LDV_SECRET, uniqueSubject } from '@register/testkit';
import { intervalOf, removeExpired } from '../src/logbook/logbook-retention.job';
import type { LogbookRow } from '../src/logbook/logbook-record';
import { startAuditSystem, type AuditSystem } from './support/system';

let h: AuditSystem;
beforeAll(async () => {
  h = await startAuditSystem();
});
afterAll(async () => h.close());

const BASE = 'https://register.example.nl/verwerkingsactiviteiten';
const now = new Date('2030-06-01T12:00:00.000Z');
const ago = (days: number) => new Date(now.getTime() - days * 86_400_000);

function row(subject: string, activity: string, end: Date): LogbookRow {
  return {
    record_id: randomUUID(),
    trace_id: '0af7651916cd43dd8448eb211c80319c',
    span_id: 'b7ad6b7169203331',
    parent_span_id: null,
    name: 'GET /api/v1/dashboard-view',
    status: 'Ok',
    start_time: end,
    end_time: end,
    processing_activity_id: activity,
    data_subject_id: pseudonymOf(subject, TEST_LDV_SECRET),
    data_subject_id_type: 'BSN',
    foreign_trace_id: null,
    foreign_span_id: null,
    exception_type: null,
    exception_message: null,
    door: 'zelf',
    service: 'applications',
  };
}

describe('the retention of the processing log', () => {
  it('when records outlive their activity’s bewaartermijn, then exactly those are removed', async () => {
    const subject = uniqueSubject();
    const expired = row(subject, `${BASE}/inzage-registratie`, ago(2 * 366)); // P1Y
    const young = row(subject, `${BASE}/inzage-registratie`, ago(180));
    const longKept = row(subject, `${BASE}/aanvragen`, ago(2 * 366)); // P7Y
    const expiredToo = row(subject, `${BASE}/aanvragen`, ago(8 * 366));
    const unknown = row(subject, `${BASE}/niet-meer-in-het-register`, ago(20 * 366));
    await h.db.insertInto('logbook').values([expired, young, longKept, expiredToo, unknown]).execute();

    expect(await removeExpired(h.db, now)).toBeGreaterThanOrEqual(2);

    const left = await h.db
      .selectFrom('logbook')
      .select('record_id')
      .where('data_subject_id', '=', pseudonymOf(subject, TEST_LDV_SECRET))
      .execute();
    expect(left.map((r) => r.record_id).sort()).toEqual([young, longKept, unknown].map((r) => r.record_id).sort());
  });

  it(
    'when a bewaartermijn is read, then years, ' +
      'months and days become a PostgreSQL interval and anything else is refused',
    () => {
      expect(intervalOf('P7Y')).toBe('7 years');
      expect(intervalOf('P6M')).toBe('6 months');
      expect(intervalOf('P30D')).toBe('30 days');
      expect(() => intervalOf('P1W')).toThrow('bewaartermijn');
    },
  );
});
