import { randomUUID } from 'node:crypto';
import { asUser, eventually, practitioner } from '@register/testkit';
import { enqueueEvent } from '@register/service-kit';
import { startLetters, type Harness } from './support/harness';

let h: Harness;
beforeAll(async () => {
  h = await startLetters();
});
afterAll(async () => h.close());

describe('health probes', () => {
  it('when asked without an identity, then /health answers ok', async () => {
    const res = await fetch(`${h.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', service: 'letters' });
  });

  it('when the database and NATS are up, then /health/ready answers 200', async () => {
    const res = await fetch(`${h.url}/health/ready`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready', service: 'letters', checks: { database: true, events: true } });
  });
});

describe('/api/v1/brief before any route exists', () => {
  it('when the gateway signature is missing, then 401 unauthenticated', async () => {
    const res = await fetch(`${h.url}/api/v1/brief`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { type: string }).type).toBe('/problems/unauthenticated');
  });

  it('when a signed identity asks, then a bare 404', async () => {
    const res = await fetch(`${h.url}/api/v1/brief`, { headers: asUser(practitioner('900000001', 'drafter')) });
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('');
  });
});

describe('the outbox relay', () => {
  it('when an event is written to the outbox, then it is published with its id as Nats-Msg-Id', async () => {
    // A subject of this run's own, removed afterwards, so parallel runs never see each other's event.
    const subject = `register.letters.test-${randomUUID()}`;
    const envelope = await enqueueEvent(h.database.db, subject, 'test', { ok: true }, null);
    try {
      const msg = await eventually(() => h.events.jsm.streams.getMessage('REGISTER', { last_by_subj: subject }).then((m) => m ?? undefined, () => undefined));
      expect(msg.json<{ id: string }>().id).toBe(envelope.id);
      expect(msg.header?.get('Nats-Msg-Id')).toBe(envelope.id);
    } finally {
      await h.events.jsm.streams.purge('REGISTER', { filter: subject });
    }
  });
});

describe('GET /openapi.json', () => {
  it('when the OpenAPI document is read, then it is the empty Letters service description', async () => {
    const doc = (await (await fetch(`${h.url}/openapi.json`)).json()) as { info: { title: string }; paths?: object };
    expect(doc.info.title).toBe('Letters service');
    expect(Object.keys(doc.paths ?? {})).toEqual([]);
  });
});
