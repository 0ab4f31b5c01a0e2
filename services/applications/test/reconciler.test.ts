import pg from 'pg';
import pino from 'pino';
import { freePort } from '@register/embedded';
import { zgwSettingsOf } from '@register/launcher';
import { asUser, eventually, practitioner, startNeighbour, uniqueSubject, type Neighbour } from '@register/testkit';
import { startZgwSimulator, type ZgwSimulator } from '@register/zgw-sim';
import { client } from './support/client';
import {
  logFrom,
  mirrored,
  startMirrorSystem,
  submitIntake,
  ZGW_CLIENT_ID,
  ZGW_SECRET,
  type MirrorSystem,
} from './support/mirror-system';
import { as } from './support/neighbours-system';
import { zgwProxy } from './support/zgw-proxy';

// The reconciler tries a diverged case again every second here (5 minutes in production).
let system: MirrorSystem;
beforeAll(async () => {
  system = await startMirrorSystem({ reconcileMs: 1000 });
}, 120_000);
afterAll(() => system.close());
afterEach(() => system.sim.faults.clear());

describe('the reconciler (ADR 0011)', () => {
  it(
    'when the zaaksysteem refuses the initiator for a while, then the case diverges ' +
      'once, is tried again at most every interval from its last step, and heals: flag ' +
      'cleared, one zaaksysteem-hersteld row',
    async () => {
      // The mirror's try and the reconciler's next two fail; the third heals the case.
      system.sim.faults.add({ path: '/zaken/api/v1/rollen', method: 'POST', mode: 'status', status: 503, count: 3 });
      const log = logFrom(system);
      const subject = uniqueSubject();

      const { id, referentie, correlationId } = await submitIntake(system, subject, 1);

      await eventually(async () =>
        (await as.practitioner(system, subject).get(`/api/v1/applications/${id}`)).body.status.reden ===
        'zaaksysteem-divergentie'
          ? true
          : undefined,
      );
      const healed = await eventually(async () => {
        const rows = system
          .audits('zaaksysteem-hersteld')
          .filter((e) => e.data.resource === `case/${referentie}` && e.correlationId === correlationId);
        return rows.length > 0 ? rows : undefined;
      }, 20_000);
      expect(healed.map((r) => r.data)).toEqual([
        { action: 'zaaksysteem-hersteld', resource: `case/${referentie}`, decision: 'allow', role: 'system' },
      ]);
      const diverged = system
        .audits('zaaksysteem-divergentie')
        .filter((e) => e.data.resource === `case/${referentie}` && e.correlationId === correlationId);
      expect(diverged.map((r) => [r.data.decision, r.data.role, r.correlationId])).toEqual([
        ['flagged', 'system', correlationId],
      ]);
      expect((await as.practitioner(system, subject).get(`/api/v1/applications/${id}`)).body.status).toMatchObject({
        tag: 'Ingediend',
        manual: false,
        reden: null,
      });
      const view = await mirrored(system, referentie, { documents: 1 });
      expect([view.statussen.length, view.rollen.length, view.zaakinformatieobjecten.length]).toEqual([1, 1, 1]);
      // From the last step: one zaak and one status were ever created; the initiator was tried once per pass.
      const calls = log();
      expect(calls.filter((r) => r.operationId === 'zaak_create')).toHaveLength(1);
      expect(calls.filter((r) => r.operationId === 'status_create')).toHaveLength(1);
      const rollen = calls.filter((r) => r.method === 'POST' && r.path === '/zaken/api/v1/rollen');
      expect(rollen.map((r) => r.status)).toEqual([503, 503, 503, 201]);
      expect(rollen.at(-1)!.status).toBe(201);
      for (let i = 1; i < rollen.length; i++)
        expect(Date.parse(rollen[i]!.at) - Date.parse(rollen[i - 1]!.at)).toBeGreaterThanOrEqual(900);
    },
  );
});

describe('a crash of the applications service in the middle of a case', () => {
  let sim: ZgwSimulator;
  let proxy: Awaited<ReturnType<typeof zgwProxy>>;
  let apps: Neighbour;
  beforeAll(async () => {
    // A simulator of its own: this instance draws referenties from its own database's sequence.
    proxy = await zgwProxy();
    const port = await freePort();
    sim = await startZgwSimulator({
      secret: ZGW_SECRET,
      clientId: ZGW_CLIENT_ID,
      port,
      baseUrl: proxy.url,
      logger: pino({ level: 'silent' }),
    });
    proxy.target(`http://127.0.0.1:${port}`);
    apps = await startNeighbour('applications', {
      env: {
        ...system.events.env.applications,
        REFERENCE_URL: system.reference.url,
        DOCUMENTS_URL: system.documents.url,
        ...zgwSettingsOf(sim, { clientId: ZGW_CLIENT_ID, secret: ZGW_SECRET, pollMs: 100 }),
        // Longer than any test here: the held initiator ends with the kill, never with the client's timeout.
        ZGW_TIMEOUT_MS: '60000',
      },
    });
  }, 120_000);
  afterAll(async () => {
    await apps.close();
    await Promise.all([sim.close(), proxy.close()]);
  });

  it(
    'when the process is killed (SIGKILL) while the initiator is being written, then ' +
      'the restarted process finds it and nothing exists twice',
    async () => {
      // The initiator's create is held until the process is dead: the kill lands while it is being written.
      const hold = sim.faults.add({ path: '/zaken/api/v1/rollen', method: 'POST', mode: 'hold', count: 1 });
      const subject = uniqueSubject();
      const me = client(apps.url, practitioner(subject));
      const { id } = (await me.post('/api/v1/applications', { type: 'intake' })).body;
      const doc = await system.documents.upload(subject, 'intake', 'diploma');
      const seenFrom = proxy.seen.length;
      const res = await me.post(`/api/v1/applications/${id}/submit`, {
        diplomaHerkomst: 'handmatig',
        uren: 3000,
        documents: [{ categoryId: 'diploma', channel: 'digitaal', documentId: doc }],
      });
      expect(res.status).toBe(200);
      await sim.faults.waitForHeld(hold.id, 1, 15_000);
      expect(
        proxy.seen.slice(seenFrom).filter((r) => r.method === 'POST' && r.path === '/zaken/api/v1/rollen'),
      ).toHaveLength(1);

      await apps.kill();
      // The dead process's call arrived whole: released now, it is written with no one to hear the answer.
      sim.faults.release(hold.id);
      expect((await sim.state.waitForRequest((r) => r.faultId === hold.id)).status).toBe(201);
      // The dead process's claim on the case runs out (its lease, moved forward here instead of waited for).
      const db = new pg.Client({ connectionString: apps.databaseUrl });
      await db.connect();
      await db.query('UPDATE case_mirrors SET next_attempt_at = now() WHERE referentie = $1', [res.body.referentie]);
      await db.end();
      await apps.start();

      const referentie = res.body.referentie as string;
      const view = await eventually(async () => {
        const [v] = sim.state.zakenWithIdentificatie(referentie);
        return v && v.zaakinformatieobjecten.length === 1 ? v : undefined;
      }, 30_000);
      expect(sim.state.zakenWithIdentificatie(referentie)).toHaveLength(1);
      expect([view.statussen.length, view.rollen.length]).toEqual([1, 1]);
      expect(
        sim.state
          .requests()
          .filter((r) => r.operationId === 'rol_create')
          .map((r) => r.status),
      ).toEqual([201]);
      const status = await fetch(`${apps.url}/api/v1/applications/${id}`, {
        headers: asUser(practitioner(subject)),
      }).then((r) => r.json() as Promise<{ status: unknown }>);
      expect(status.status).toMatchObject({ manual: false, reden: null });
    },
  );
});
