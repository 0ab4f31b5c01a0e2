import { randomUUID } from 'node:crypto';
// The same functions the CLI (tools/dead-letters) calls: both work on the dead letters in the stream.
import { DurableConsumer, createLogger, listDeadLetters, replayDeadLetter } from '@register/service-kit';
import { asUser, eventually, natsUrl, practitioner, removeDurableConsumers } from '@register/testkit';
import { startAuditSystem, type AuditSystem } from './support/system';

// The operator's dead letters (issue 22): what a durable consumer gave up on, listed, replayed and discarded through
// the audit service, on the same stream the CLI (tools/dead-letters) reads. A consumer of this test fails on
// purpose while `failing` is set, and gives an event up after two deliveries.
let h: AuditSystem;
const durable = `dl-api-${randomUUID().slice(0, 8)}`;
const subject = `register.test.${durable}`;
let failing = true;
const handled: string[] = [];
let consumer: DurableConsumer;

beforeAll(async () => {
  h = await startAuditSystem();
  consumer = new DurableConsumer({
    events: h.events,
    durable,
    filter: `${subject}.>`,
    logger: createLogger('dead-letter-test', 'silent'),
    retryDelayMs: 10,
    maxRetryDelayMs: 20,
    maxDeliver: 2,
    handle: async (_subject, payload) => {
      const { id } = payload as { id: string };
      if (failing && !id.startsWith('sentinel')) throw new Error('the database is down (owner 900000001)');
      handled.push(id);
      return 'handled';
    },
  });
  await consumer.start();
});
afterAll(async () => {
  await consumer.stop();
  await h.close();
  await removeDurableConsumers(natsUrl(), [durable]);
});

const admin = (correlationId = `corr-dl-${randomUUID()}`) => asUser(practitioner('900000003', 'admin'), correlationId);
const call = async (method: string, path: string, correlationId?: string) => {
  const res = await fetch(`${h.url}${path}`, { method, headers: admin(correlationId) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, link: res.headers.get('link') };
};
type Letter = { id: string; eventId: string };
const lettersOf = async (): Promise<Letter[]> =>
  (await call('GET', `/api/v1/admin/dead-letters?consumer=${durable}`)).body as Letter[];

/** Publishes an event the consumer gives up on, and waits until its dead letter is listed. */
async function deadLetter(): Promise<{ id: string; eventId: string; correlationId: string }> {
  const eventId = randomUUID();
  const correlationId = `corr-event-${randomUUID()}`;
  const event = { id: eventId, type: 'test.happened', correlationId, data: { owner: '900000001' } };
  await h.events.publish(`${subject}.happened`, JSON.stringify(event), eventId);
  const letter = await eventually(async () => (await lettersOf()).find((l) => l.eventId === eventId));
  return { id: letter.id, eventId, correlationId };
}

/** Every event published before the sentinel has been delivered by the time the sentinel is handled. */
async function drained(): Promise<void> {
  const sentinel = `sentinel-${randomUUID()}`;
  await h.events.publish(`${subject}.sentinel`, JSON.stringify({ id: sentinel }), sentinel);
  await eventually(async () => (handled.includes(sentinel) ? true : undefined));
}

async function auditRows(correlationId: string): Promise<Array<Record<string, unknown>>> {
  return eventually(async () => {
    const rows = (await call('GET', `/api/v1/admin/audit?correlationId=${correlationId}`)).body as unknown[];
    return rows.length > 0 ? (rows as Array<Record<string, unknown>>) : undefined;
  });
}

describe('GET /api/v1/admin/dead-letters', () => {
  it(
    'when a consumer gave up on an event, ' + 'then it is listed with where, why and when, without the event data',
    async () => {
      const { id, eventId, correlationId } = await deadLetter();

      const letter = (await lettersOf()).find((l) => l.id === id);

      expect(letter).toEqual({
        id,
        consumer: durable,
        subject: `${subject}.happened`,
        reason: 'the database is down (owner *********)',
        failedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        deliveries: 2,
        eventId,
        eventType: 'test.happened',
        correlationId,
      });
      // The CLI's list shows the same letter.
      expect((await listDeadLetters(h.events, durable)).map((l) => String(l.seq))).toContain(id);
    },
  );

  it(
    'when a limit is given, ' + 'then the letters come a page at a time (Link rel="next") and together once each',
    async () => {
      await deadLetter();
      await deadLetter();
      const all = (await lettersOf()).map((l) => l.id);
      const seen: string[] = [];
      let next: string | null = `/api/v1/admin/dead-letters?consumer=${durable}&limit=1`;
      while (next) {
        const page = await call('GET', next);
        expect(page.status).toBe(200);
        expect(page.body.length).toBeLessThanOrEqual(1);
        seen.push(...(page.body as Letter[]).map((l) => l.id));
        next = page.link ? (/^<([^>]+)>; rel="next"$/.exec(page.link)?.[1] ?? null) : null;
      }
      expect(seen).toEqual(all);
    },
  );

  it.each([
    ['limit=0', 'limit'],
    ['consumer=not%20a%20name', 'consumer'],
    ['cursor=xyz', 'cursor'],
  ])('when %s, then 400 names %s', async (query, field) => {
    const res = await call('GET', `/api/v1/admin/dead-letters?${query}`);
    expect(res.status).toBe(400);
    expect((res.body as { errors: Array<{ field: string }> }).errors.map((e) => e.field)).toEqual([field]);
  });
});

describe('POST /api/v1/admin/dead-letters/{id}/replay', () => {
  it(
    'when two replays of one letter arrive together, then the consumer ' +
      'processes the event once, the letter is gone and each replay is audited',
    async () => {
      const { id, eventId } = await deadLetter();
      failing = false;
      const [c1, c2] = [`corr-replay-${randomUUID()}`, `corr-replay-${randomUUID()}`];

      const answers = await Promise.all([
        call('POST', `/api/v1/admin/dead-letters/${id}/replay`, c1),
        call('POST', `/api/v1/admin/dead-letters/${id}/replay`, c2),
      ]);
      await drained();

      expect(answers.map((a) => a.status)).toContain(202);
      expect(answers.every((a) => a.status === 202 || a.status === 404)).toBe(true);
      expect(handled.filter((h) => h === eventId)).toEqual([eventId]);
      expect((await lettersOf()).map((l) => l.id)).not.toContain(id);
      expect((await call('POST', `/api/v1/admin/dead-letters/${id}/replay`)).status).toBe(404);
      for (const [answer, correlationId] of [
        [answers[0]!, c1],
        [answers[1]!, c2],
      ] as const) {
        if (answer.status !== 202) continue;
        const rows = await auditRows(correlationId);
        expect(rows.map(({ at: _at, ...r }) => r)).toEqual([
          {
            action: 'dead-letter:replay',
            resource: `dead-letter/${id}`,
            decision: 'allow',
            role: 'admin',
            correlationId,
          },
        ]);
      }
      failing = true;
    },
  );

  it('when the id names no dead letter, then a bare 404', async () => {
    const other = await h.events.js.publish(`${h.events.prefix}${subject}.other`, '{}');
    for (const id of [String(other.seq), '999999999', 'abc', '0']) {
      const res = await call('POST', `/api/v1/admin/dead-letters/${id}/replay`);
      expect([res.status, res.body]).toEqual([404, null]);
    }
  });

  it('when the CLI replays a letter, then the API no longer lists it', async () => {
    const { id } = await deadLetter();
    failing = false;
    await replayDeadLetter(h.events, Number(id));
    await drained();
    expect((await lettersOf()).map((l) => l.id)).not.toContain(id);
    failing = true;
  });
});

describe('DELETE /api/v1/admin/dead-letters/{id}', () => {
  it(
    'when an operator discards a letter, then 204, ' +
      'it is gone without a delivery, a second discard is 404, and one audit row',
    async () => {
      const { id, eventId } = await deadLetter();
      const correlationId = `corr-discard-${randomUUID()}`;

      const res = await call('DELETE', `/api/v1/admin/dead-letters/${id}`, correlationId);
      failing = false;
      await drained();
      failing = true;

      expect(res.status).toBe(204);
      expect((await lettersOf()).map((l) => l.id)).not.toContain(id);
      expect(handled).not.toContain(eventId);
      expect((await call('DELETE', `/api/v1/admin/dead-letters/${id}`)).status).toBe(404);
      const rows = await auditRows(correlationId);
      expect(rows.map(({ at: _at, ...r }) => r)).toEqual([
        {
          action: 'dead-letter:discard',
          resource: `dead-letter/${id}`,
          decision: 'allow',
          role: 'admin',
          correlationId,
        },
      ]);
    },
  );
});
