import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { freePort, startNatsServer, type Running } from '@register/embedded';
import { applications } from '@register/contracts';
import { newEvent } from '@register/service-kit';
import { V1_VARIANTS, eventually, v1Event } from '@register/testkit';
import { startLettersSystem, type LettersSystem } from './support/system';
import {
  caseBrief,
  decideCase,
  drafter,
  portal,
  startNeighboursSystem,
  submitCase,
  type NeighboursSystem,
} from './support/neighbours-system';

// Per-case letters: a besluit recorded in the applications service becomes that case's brief in letters,
// through the durable consumer of `application.decided`. On a NATS server of this file's own, so that it can
// be restarted without disturbing any other suite.
let dir: string;
let port: number;
let nats: Running;
let system: NeighboursSystem;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'letters-nats-'));
  port = await freePort();
  nats = await startNatsServer(dir, port);
  system = await startNeighboursSystem({ natsUrl: nats.url });
}, 120_000);
afterAll(async () => {
  await system?.close();
  await nats?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

const blocksOf = (view: any) => view.brief.sections.map((s: any) => s.blocks.map((b: any) => b.sourcePassageId));

describe('the decided consumer and the v1.0.0 event (ADR 0228)', () => {
  // The case is decided in the applications service's database without its event (the letter context is served
  // for a decided case only), so its brief can come only from the v1.0.0 sample, pinned to this case.
  async function decidedWithoutEvent(): Promise<{ id: string; referentie: string }> {
    const { id, referentie } = await submitCase(system);
    const db = new pg.Client({ connectionString: system.applications.databaseUrl });
    await db.connect();
    try {
      await db.query(
        `UPDATE applications SET status_tag = 'Afgewezen', besluit = 'afwijzen',
           toelichting = 'Onvoldoende aangetoond.', decided_at = now(), updated_at = now() WHERE id = $1`,
        [id],
      );
    } finally {
      await db.end();
    }
    return { id, referentie };
  }

  it.each(V1_VARIANTS)(
    "when the v1.0.0 sample of application.decided arrives %s, then the case's brief is written for its besluit",
    async (variant) => {
      const { id, referentie } = await decidedWithoutEvent();
      const decided = applications.events.decided;
      const { data, envelope } = v1Event(decided.subject, variant, { applicationId: id, referentie });
      const event = { ...newEvent(decided.type, data, `v1-${id}`), ...envelope };
      const nc = await connect({ servers: nats.url, name: 'letters-test-v1-sample' });
      try {
        await jetstream(nc).publish(system.events.prefix + decided.subject, JSON.stringify(event), { msgID: event.id });
      } finally {
        await nc.close();
      }
      const res = await caseBrief(system, referentie);
      expect(res.body.caseContext.aanvraagReferentie).toBe(referentie);
      expect(blocksOf(res.body)[3]).toEqual(['besluit-afwijzen']);
      expect(
        await system.letters.db.selectFrom('brief').select('brief_id').where('referentie', '=', referentie).execute(),
      ).toHaveLength(1);
    },
  );
});

describe('a brief per decided case', () => {
  it(
    "when a case handler rejects an application, then letters writes that case's rejection letter " +
      'with its own copy of the case context',
    async () => {
      const { referentie } = await decideCase(system, 'afwijzen', '900000002');
      const res = await caseBrief(system, referentie);
      expect(res.body.caseContext).toEqual({
        zorgverlenerNaam: 'B. Jansen',
        registerNummer: expect.stringMatching(/^\*+\d{3}$/),
        beroep: 'verpleegkundige',
        aanvraagReferentie: referentie,
      });
      expect(res.body.brief.beroep).toBe('verpleegkundige');
      expect(blocksOf(res.body)).toEqual([
        ['kenmerk-standaard'],
        ['aanhef-formeel'],
        ['kern-afwijzen'],
        ['besluit-afwijzen'],
        ['bezwaar-standaard'],
        ['afsluiting-vragen'],
      ]);
      expect(res.body.availablePassages.some((p: any) => p.passageId === 'kern-verpleegkundige')).toBe(true);
      expect(res.body.availablePassages.some((p: any) => p.beroep === 'arts')).toBe(false);
      const html = (await portal(system, drafter()).get(`/api/v1/brief/preview?referentie=${referentie}`)).text;
      expect(html).toContain(`Ons kenmerk: ${referentie}`);
      expect(html).toContain('Onvoldoende aangetoond.');

      // Letters keeps its own copy: stopping the applications service does not take the letter away.
      await system.applications.stop();
      try {
        expect((await caseBrief(system, referentie)).body.caseContext.zorgverlenerNaam).toBe('B. Jansen');
      } finally {
        await system.applications.start();
      }
    },
  );

  it(
    'when a case is granted or left unhandled, then each gets the passages of its ' +
      'besluit, and the shared brief stays as it was',
    async () => {
      const shared = (await portal(system, drafter()).get('/api/v1/brief')).body.brief.briefId;
      const granted = await decideCase(system, 'toekennen');
      const unhandled = await decideCase(system, 'buiten-behandeling');
      expect(blocksOf((await caseBrief(system, granted.referentie)).body)[3]).toEqual(['besluit-toekennen']);
      expect(blocksOf((await caseBrief(system, unhandled.referentie)).body)[3]).toEqual(['besluit-buiten-behandeling']);
      expect((await portal(system, drafter()).get('/api/v1/brief')).body.brief.briefId).toBe(shared);
    },
  );

  it('when NATS restarts between the besluit and the consumer, then the brief still appears, once', async () => {
    await nats.stop();
    // The besluit commits with its event in the applications outbox while the broker is down.
    const decided = decideCase(system, 'toekennen');
    const { referentie } = await decided;
    nats = await startNatsServer(dir, port);
    const res = await caseBrief(system, referentie);
    expect(res.body.brief.status.tag).toBe('concept');
    const { rows } = await system.letters.db
      .selectFrom('brief')
      .select('brief_id')
      .where('referentie', '=', referentie)
      .execute()
      .then((r) => ({ rows: r }));
    expect(rows).toHaveLength(1);
  }, 90_000);

  it(
    'when the besluit is already on the stream while letters is down and NATS ' +
      'restarts before letters comes back, then the brief appears, once',
    async () => {
      const { durable, url, databaseUrl } = system.letters;
      await system.letters.stop();
      let again: LettersSystem | null = null;
      try {
        const { referentie } = await decideCase(system, 'afwijzen');
        // The event waits in the stream for letters' durable consumer (published, not yet delivered).
        await eventually(async () => ((await pendingFor(durable)) > 0 ? true : undefined), 30_000, 100);
        await nats.stop();
        nats = await startNatsServer(dir, port);
        again = await startLettersSystem({
          database: { url: databaseUrl, drop: async () => undefined },
          natsUrl: nats.url,
          applicationsUrl: system.applications.url,
          documentsUrl: system.documents.url,
          durable,
          events: system.events,
          port: Number(new URL(url).port),
        });
        const res = await caseBrief(system, referentie);
        expect(blocksOf(res.body)[3]).toEqual(['besluit-afwijzen']);
        expect(
          await again.db.selectFrom('brief').select('brief_id').where('referentie', '=', referentie).execute(),
        ).toHaveLength(1);
        await eventually(async () => ((await pendingFor(durable)) === 0 ? true : undefined), 30_000, 100);
      } finally {
        // Stopped, not closed: the system's own close drops the database and the durable consumer at the end.
        await again?.stop();
      }
    },
    120_000,
  );
});

/** What the stream holds for a durable consumer that it has not acknowledged yet. */
async function pendingFor(durable: string): Promise<number> {
  const nc = await connect({ servers: nats.url, name: 'letters-test-pending' });
  try {
    const info = await (await jetstreamManager(nc)).consumers.info(system.events.stream, durable);
    return info.num_pending + info.num_ack_pending;
  } finally {
    await nc.close();
  }
}
