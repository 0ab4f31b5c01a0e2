import { randomBytes } from 'node:crypto';
import { asUser, eventually, practitioner, uniqueSubject } from '@register/testkit';
import { as } from './support/neighbours-system';
import {
  bsnSubject,
  logFrom as logFromIn,
  mirrored as mirroredIn,
  startMirrorSystem,
  submitIntake,
  ZGW_CLIENT_ID,
  type MirrorSystem,
} from './support/mirror-system';

let system: MirrorSystem;
beforeAll(async () => {
  system = await startMirrorSystem();
}, 120_000);
afterAll(() => system.close());
afterEach(() => system.sim.faults.clear());

const mirrored = (referentie: string, counts?: { statussen?: number; documents?: number }) =>
  mirroredIn(system, referentie, counts);
const logFrom = () => logFromIn(system);

const amsterdamDate = (iso: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam' }).format(new Date(iso));

describe('mirroring a submit (ADR 0011)', () => {
  it(
    'when an intake with two digital documents is submitted, then zaak, status, ' +
      'initiator and per document an information object and its relation are written ' +
      'in that order, each accepted',
    async () => {
      const log = logFrom();
      const subject = bsnSubject();
      const { referentie, docs, submittedAt } = await submitIntake(system, subject, 2);

      const view = await mirrored(referentie, { documents: 2 });

      // The simulator validated every request against the official documents: each create answered 201.
      const creates = log().filter((r) => r.operationId?.endsWith('_create'));
      expect(creates.map((r) => [r.operationId, r.status])).toEqual([
        ['zaak_create', 201],
        ['status_create', 201],
        ['rol_create', 201],
        ['enkelvoudiginformatieobject_create', 201],
        ['zaakinformatieobject_create', 201],
        ['enkelvoudiginformatieobject_create', 201],
        ['zaakinformatieobject_create', 201],
      ]);
      expect(log().every((r) => typeof r.status === 'number' && r.status < 300)).toBe(true);
      expect(view.zaak).toMatchObject({
        identificatie: referentie,
        bronorganisatie: system.sim.rsin,
        verantwoordelijkeOrganisatie: system.sim.rsin,
        zaaktype: system.sim.zaaktypeUrl,
        startdatum: amsterdamDate(submittedAt),
        registratiedatum: amsterdamDate(submittedAt),
        omschrijving: 'Aanvraag intake',
      });
      expect(view.statussen).toEqual([
        expect.objectContaining({ statustype: system.sim.catalogi.statustypeUrls.ingediend }),
      ]);
      expect(new Date(String(view.statussen[0]!['datumStatusGezet'])).toISOString()).toBe(submittedAt);
      expect(view.rollen).toEqual([
        expect.objectContaining({
          roltype: system.sim.catalogi.roltypeInitiatorUrl,
          betrokkeneType: 'natuurlijk_persoon',
          betrokkeneIdentificatie: expect.objectContaining({ inpBsn: subject }),
        }),
      ]);
      const documenten = system.sim.state
        .documenten()
        .filter((d) => String(d['identificatie']).startsWith(`${referentie}-`));
      expect(documenten.map((d) => d['identificatie']).sort()).toEqual([`${referentie}-D1`, `${referentie}-D2`]);
      for (const d of documenten) {
        expect(d).toMatchObject({
          bronorganisatie: system.sim.rsin,
          taal: 'nld',
          informatieobjecttype: system.sim.catalogi.informatieobjecttypeUrl,
          bestandsnaam: 'bewijs.pdf',
          titel: 'bewijs.pdf',
        });
      }
      expect(view.zaakinformatieobjecten.map((z) => z['informatieobject']).sort()).toEqual(
        documenten.map((d) => d['url']).sort(),
      );
      expect(docs).toHaveLength(2);
    },
  );

  it(
    'when the mirror calls, then every call carries a fresh HS256 JWT of the client ' +
      '(iat now, in whole seconds) and the Zaken API calls carry the CRS headers',
    async () => {
      const log = logFrom();
      const seenFrom = system.proxy.seen.length;
      // Whole seconds, rounded down: a token minted during this test has an iat from this second on.
      const startedSecond = Math.floor(Date.now() / 1000);
      const { referentie } = await submitIntake(system, uniqueSubject(), 1);
      await mirrored(referentie, { documents: 1 });

      const calls = log();
      expect(calls.length).toBeGreaterThanOrEqual(5);
      for (const call of calls) {
        expect(call.claims).toMatchObject({
          iss: ZGW_CLIENT_ID,
          client_id: ZGW_CLIENT_ID,
          user_id: 'self-service',
          user_representation: 'self-service',
        });
        const iat = call.claims!['iat'] as number;
        expect(Number.isInteger(iat)).toBe(true);
        // Minted for this call: not before the test began, not after the call arrived.
        expect(iat).toBeGreaterThanOrEqual(startedSecond);
        expect(iat).toBeLessThanOrEqual(Date.parse(call.at) / 1000);
      }
      const seen = system.proxy.seen.slice(seenFrom);
      const tokens = seen.map((r) => r.headers.authorization);
      expect(tokens.every((t) => /^Bearer [\w-]+\.[\w-]+\.[\w-]+$/.test(String(t)))).toBe(true);
      expect(JSON.parse(Buffer.from(String(tokens[0]).split('.')[0]!.slice(7), 'base64url').toString())).toEqual({
        alg: 'HS256',
        typ: 'JWT',
      });
      const zaken = seen.filter((r) => r.path.startsWith('/zaken/api/v1/'));
      expect(zaken.length).toBeGreaterThanOrEqual(4);
      for (const r of zaken)
        expect([r.headers['accept-crs'], r.headers['content-crs']]).toEqual(['EPSG:4326', 'EPSG:4326']);
    },
  );

  it(
    'when the submit carries a traceparent, then the ZGW calls of its case continue ' +
      'that trace, each in a span of its own (issue 14)',
    async () => {
      const seenFrom = system.proxy.seen.length;
      const subject = uniqueSubject();
      const created = await as.practitioner(system, subject).post('/api/v1/applications', { type: 'intake' });
      expect(created.status).toBe(201);
      const traceId = randomBytes(16).toString('hex');
      const res = await fetch(`${system.apps.url}/api/v1/applications/${created.body.id}/submit`, {
        method: 'POST',
        headers: {
          ...asUser(practitioner(subject)),
          'content-type': 'application/json',
          traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
        },
        body: JSON.stringify({ diplomaHerkomst: 'digitaal', uren: 3000 }),
      });
      expect(res.status).toBe(200);
      const { referentie } = (await res.json()) as { referentie: string };
      await mirrored(referentie);

      const seen = system.proxy.seen.slice(seenFrom);
      const traced = seen.filter((r) => String(r.headers.traceparent).startsWith(`00-${traceId}-`));
      expect(traced.filter((r) => r.method === 'POST').map((r) => r.path.replace(/\/$/, ''))).toEqual(
        expect.arrayContaining(['/zaken/api/v1/zaken', '/zaken/api/v1/statussen', '/zaken/api/v1/rollen']),
      );
      expect(new Set(traced.map((r) => r.headers.traceparent)).size).toBe(traced.length);
      expect(seen.every((r) => /^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/.test(String(r.headers.traceparent)))).toBe(true);
    },
  );

  it(
    'when the zaaksysteem does not answer, then the submit does not wait for it: the ' +
      'mirror works after the commit',
    async () => {
      // Zaak creates and lookups are held until this test lets them go: a submit that waited for one would never
      // answer, and no retry can create the zaak meanwhile.
      const creates = system.sim.faults.add({ path: '/zaken/api/v1/zaken', method: 'POST', mode: 'hold' });
      const lookups = system.sim.faults.add({ path: '/zaken/api/v1/zaken', method: 'GET', mode: 'hold' });
      const { referentie, status } = await submitIntake(system, uniqueSubject(), 0);

      expect(status).toMatchObject({ tag: 'Ingediend', manual: false, reden: null });
      expect(system.sim.state.zakenWithIdentificatie(referentie)).toHaveLength(0);
      await system.sim.faults.waitForHeld(creates.id);
      system.sim.faults.remove(creates.id);
      system.sim.faults.remove(lookups.id);
      await mirrored(referentie);
      expect(system.sim.state.zakenWithIdentificatie(referentie)).toHaveLength(1);
    },
  );
});

const POST = (path: string) => (r: { method: string; path: string }) =>
  r.method === 'POST' && r.path.split('?')[0] === path;

/** The application as its owner reads it, once the mirror flagged it. */
async function flagged(subject: string, id: string) {
  return eventually(async () => {
    const detail = (await as.practitioner(system, subject).get(`/api/v1/applications/${id}`)).body;
    return detail.status.manual ? detail.status : undefined;
  });
}

/**
 * This case's divergence rows: its referentie and its submit's correlation id (other test files' cases may share a
 * referentie).
 */
async function divergenceRows(referentie: string, correlationId: string) {
  return eventually(async () => {
    const rows = system
      .audits('zaaksysteem-divergentie')
      .filter((e) => e.data.resource === `case/${referentie}` && e.correlationId === correlationId);
    return rows.length > 0 ? rows : undefined;
  });
}

describe('a failed mirror write (ADR 0011: retry only without an answer, at most 3 attempts)', () => {
  it(
    'when POST /zaken gets no answer (connection reset before it is handled), then ' +
      'exactly 3 attempts, the divergence flag and one audit row with the submit ' +
      'correlation id; the submit itself succeeded',
    async () => {
      system.sim.faults.add({ path: '/zaken/api/v1/zaken', method: 'POST', mode: 'refuse', count: 10 });
      const log = logFrom();
      const subject = uniqueSubject();

      const { id, referentie, status, correlationId } = await submitIntake(system, subject, 0);

      expect(status).toMatchObject({ tag: 'Ingediend', manual: false, reden: null });
      expect(await flagged(subject, id)).toMatchObject({
        tag: 'Ingediend',
        manual: true,
        reden: 'zaaksysteem-divergentie',
      });
      expect(
        log()
          .filter(POST('/zaken/api/v1/zaken'))
          .map((r) => r.status),
      ).toEqual(['refused', 'refused', 'refused']);
      const rows = await divergenceRows(referentie, correlationId);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.data).toEqual({
        action: 'zaaksysteem-divergentie',
        resource: `case/${referentie}`,
        decision: 'flagged',
        role: 'system',
      });
      expect(rows[0]!.correlationId).toBe(correlationId);
      expect(system.sim.state.zakenWithIdentificatie(referentie)).toHaveLength(0);
    },
  );

  it.each([500, 503, 400])(
    'when POST /zaken answers %s, then it is not retried: one attempt, the flag and one audit row',
    async (httpStatus) => {
      system.sim.faults.add({
        path: '/zaken/api/v1/zaken',
        method: 'POST',
        mode: 'status',
        status: httpStatus,
        count: 1,
      });
      const log = logFrom();
      const subject = uniqueSubject();

      const { id, referentie, status, correlationId } = await submitIntake(system, subject, 0);

      expect(status).toMatchObject({ manual: false });
      expect(await flagged(subject, id)).toMatchObject({ manual: true, reden: 'zaaksysteem-divergentie' });
      expect(
        log()
          .filter(POST('/zaken/api/v1/zaken'))
          .map((r) => r.status),
      ).toEqual([httpStatus]);
      expect(await divergenceRows(referentie, correlationId)).toHaveLength(1);
    },
  );

  it(
    'when POST /rollen answers with a body that is not the expected JSON, then it is ' +
      'not retried and the case diverges after its zaak and status',
    async () => {
      system.proxy.mangleNext({
        method: 'POST',
        path: '/zaken/api/v1/rollen',
        status: 201,
        contentType: 'text/html',
        body: '<html>gateway</html>',
      });
      const log = logFrom();
      const subject = uniqueSubject();

      const { id, referentie, correlationId } = await submitIntake(system, subject, 0);

      expect(await flagged(subject, id)).toMatchObject({ manual: true, reden: 'zaaksysteem-divergentie' });
      expect(log().filter(POST('/zaken/api/v1/rollen'))).toHaveLength(1);
      expect(log().filter(POST('/zaken/api/v1/zaken'))).toHaveLength(1);
      expect(await divergenceRows(referentie, correlationId)).toHaveLength(1);
    },
  );

  it.each([
    ['zaak', '/zaken/api/v1/zaken'],
    ['status', '/zaken/api/v1/statussen'],
    ['rol', '/zaken/api/v1/rollen'],
    ['enkelvoudiginformatieobject', '/documenten/api/v1/enkelvoudiginformatieobjecten'],
    ['zaakinformatieobject', '/zaken/api/v1/zaakinformatieobjecten'],
  ])(
    'when the answer to the %s create is lost (handled, then the connection reset), ' +
      'then the mirror finds it and nothing exists twice',
    async (_name, path) => {
      system.sim.faults.add({ path, method: 'POST', mode: 'reset', count: 1 });
      const log = logFrom();
      const subject = uniqueSubject();

      const { id, referentie } = await submitIntake(system, subject, 1);

      const view = await mirrored(referentie, { documents: 1 });
      const creates = log().filter(POST(path));
      expect(creates.map((r) => r.status)).toEqual(['reset']);
      expect(system.sim.state.zakenWithIdentificatie(referentie)).toHaveLength(1);
      expect([view.statussen.length, view.rollen.length, view.zaakinformatieobjecten.length]).toEqual([1, 1, 1]);
      expect(
        system.sim.state.documenten().filter((d) => String(d['identificatie']).startsWith(`${referentie}-`)),
      ).toHaveLength(1);
      expect((await as.practitioner(system, subject).get(`/api/v1/applications/${id}`)).body.status).toMatchObject({
        manual: false,
        reden: null,
      });
    },
  );

  it(
    'when a create times out (ZGW_TIMEOUT_MS) but was handled, then the retry finds ' +
      'it: one initiator, no divergence',
    async () => {
      // The rol create is held past the mirror's timeout; the retry's lookup is held until the create was handled.
      const create = system.sim.faults.add({ path: '/zaken/api/v1/rollen', method: 'POST', mode: 'hold', count: 1 });
      const lookup = system.sim.faults.add({ path: '/zaken/api/v1/rollen', method: 'GET', mode: 'hold', count: 1 });
      const log = logFrom();
      const subject = uniqueSubject();

      const { id, referentie, correlationId } = await submitIntake(system, subject, 0);

      await system.sim.faults.waitForHeld(create.id, 1, 15_000);
      // The mirror gave up waiting (its timeout) and retries with a lookup, which waits here.
      await eventually(async () => (system.sim.faults.held(create.id)[0]?.clientGone ? true : undefined));
      await system.sim.faults.waitForHeld(lookup.id, 1, 15_000);
      system.sim.faults.release(create.id);
      expect((await system.sim.state.waitForRequest((r) => r.faultId === create.id)).status).toBe(201);
      system.sim.faults.release(lookup.id);
      expect((await system.sim.state.waitForRequest((r) => r.faultId === lookup.id)).status).toBe(200);

      const view = await mirrored(referentie);
      expect(view.rollen).toHaveLength(1);
      const rollen = log().filter((r) => r.path.split('?')[0] === '/zaken/api/v1/rollen');
      expect(rollen.map((r) => [r.method, r.status, r.faultId])).toEqual([
        ['POST', 201, create.id],
        ['GET', 200, lookup.id],
      ]);
      expect((await as.practitioner(system, subject).get(`/api/v1/applications/${id}`)).body.status).toMatchObject({
        manual: false,
      });
      expect(
        system
          .audits('zaaksysteem-divergentie')
          .filter((e) => e.data.resource === `case/${referentie}` && e.correlationId === correlationId),
      ).toHaveLength(0);
    },
  );
});
