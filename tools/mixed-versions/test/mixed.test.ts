import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { processingRecord } from '@register/contracts';
import { DEV_LDV_PSEUDONYM_SECRET, SERVICES, type Service } from '@register/launcher';
import { newEvent, processingRecordOf } from '@register/service-kit';
import { eventually, natsUrl } from '@register/testkit';
import { prepareBaseline } from '../src';
import { call, practitioner, users } from './support/api';
import { crossEveryBoundary } from './support/crossing';
import { allAt, startMixedSystem, type MixedSystem, type Version } from './support/mixed-system';

// ADR 0230: a rolling deployment runs one service's new version beside the others' old one, and a rollback the
// other way round. One system (its own databases, stream and bucket) goes through every such state: first every
// service at v1.0.0, each in turn at HEAD (HEAD migrating the database v1.0.0 made, with the data the earlier
// states wrote) and back at v1.0.0 (v1.0.0 starting on the schema HEAD migrated); then every service at HEAD, each
// in turn back at v1.0.0 and up again. In every state every call that crosses a service boundary is made.

let sys: MixedSystem;
beforeAll(async () => {
  const baseline = prepareBaseline();
  sys = await startMixedSystem(baseline.root, allAt('v1.0.0'));
}, 20 * 60_000);
afterAll(async () => sys?.close(), 60_000);

const only = (service: Service, version: Version, others: Version): Record<Service, Version> => ({
  ...allAt(others),
  [service]: version,
});

describe('one service at HEAD, the others at v1.0.0 (its new version rolling out)', () => {
  it.each(SERVICES)(
    'when %s runs at HEAD on the database v1.0.0 made and every other service at v1.0.0, ' +
      'then every boundary answers as v1 says; back at v1.0.0 on the migrated schema it serves again',
    async (service) => {
      await sys.arrange(only(service, 'HEAD', 'v1.0.0'));
      expect(sys.versions()).toEqual(only(service, 'HEAD', 'v1.0.0'));
      await crossEveryBoundary(sys.gateway);
      // The rollback: v1.0.0 starts on the schema HEAD migrated, and the system works again.
      await sys.arrange(allAt('v1.0.0'));
      expect(sys.versions()).toEqual(allAt('v1.0.0'));
      await crossEveryBoundary(sys.gateway);
    },
    240_000,
  );
});

describe('one service at v1.0.0, the others at HEAD (the last one not yet rolled out)', () => {
  // Every service rolled out to HEAD, in the start order.
  beforeAll(async () => sys.arrange(allAt('HEAD')), 180_000);

  it.each(SERVICES)(
    'when %s runs at v1.0.0 on the schema HEAD migrated and every ' +
      'other service at HEAD, then every boundary answers as v1 says',
    async (service) => {
      await sys.arrange(only(service, 'v1.0.0', 'HEAD'));
      expect(sys.versions()).toEqual(only(service, 'v1.0.0', 'HEAD'));
      await crossEveryBoundary(sys.gateway);
    },
    240_000,
  );
});

describe('the processing log while audit is behind (ADR 0181, 0230)', () => {
  /** A processing record as HEAD's kit writes it through the outbox (`logProcessing`), published as the relay does. */
  async function publishRecord(subject: string): Promise<void> {
    const at = new Date();
    const record = processingRecordOf(
      { activity: 'aanvragen', subject, door: 'zelf', name: 'POST /api/v1/applications', start: at, end: at },
      DEV_LDV_PSEUDONYM_SECRET,
    );
    const envelope = newEvent('processing', record, null);
    const nc = await connect({ servers: natsUrl(), name: 'mixed-processing-record' });
    try {
      const js = jetstream(nc);
      await js.publish(sys.events.prefix + processingRecord('applications').subject, JSON.stringify(envelope), {
        msgID: envelope.id,
      });
    } finally {
      await nc.close();
    }
  }

  it(
    'when a HEAD producer writes a processing record while audit still runs v1.0.0, then v1.0.0 does ' +
      'not take it (its audit consumer drops what is no audit row) and audit at HEAD puts it in the logbook',
    async () => {
      await sys.arrange(only('audit', 'v1.0.0', 'HEAD'));
      const drafter = practitioner();
      await publishRecord(drafter['X-Subject']!);
      // An audit event after the record: once v1.0.0 has stored its row, it has seen everything before it.
      const correlationId = `mixed-after-record-${randomUUID()}`;
      const flag = await call(
        sys.gateway,
        'PUT',
        '/api/v1/admin/flags/herregistratie-aanvragen',
        { ...users.admin, 'X-Correlation-Id': correlationId },
        { enabled: true },
      );
      expect(flag.status).toBe(204);
      await eventually(async () => {
        const rows = await call(sys.gateway, 'GET', `/api/v1/admin/audit?correlationId=${correlationId}`, users.admin);
        return rows.status === 200 && (rows.body as unknown[]).length === 1 ? true : undefined;
      }, 30_000);

      await sys.arrange(allAt('HEAD'));
      const inzage = await eventually(async () => {
        const res = await call(sys.gateway, 'GET', '/api/v1/me/verwerkingen', drafter);
        expect(res.status).toBe(200);
        return (res.body as unknown[]).length > 0 ? res.body : undefined;
      }, 30_000);
      expect(inzage).toEqual([
        expect.objectContaining({
          verwerkingsactiviteit: expect.objectContaining({
            id: expect.stringMatching(/\/verwerkingsactiviteiten\/aanvragen$/),
          }),
          status: 'Ok',
          door: 'zelf',
        }),
      ]);
    },
    240_000,
  );
});
