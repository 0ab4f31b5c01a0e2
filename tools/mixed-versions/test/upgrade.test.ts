import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SERVICES, type Service } from '@register/launcher';
import { LATER_LEDGER, V1_0_0_MIGRATIONS, V1_LEDGER } from '@register/service-kit';
import { eventually } from '@register/testkit';
import { prepareBaseline, type BaselineTree } from '../src';
import { call, diplomaPdf, practitioner, uploadForm, users } from './support/api';
import { HEAD_ROOT, allAt, startMixedSystem, type MixedSystem } from './support/mixed-system';

// ADR 0230: the databases v1.0.0 made, with data written through v1.0.0's API, are migrated by HEAD (every service
// with migrations: all six), and HEAD's API gives the data back as v1.0.0 gave it (fields added are allowed).

/** A service's migration names, as its migrations/index.ts in `root` lists them. */
function migrationNames(root: string, service: Service): string[] {
  const index = readFileSync(path.join(root, 'services', service, 'migrations', 'index.ts'), 'utf8');
  return [...index.matchAll(/^\s+'([^']+)':/gm)].map((m) => m[1]!).sort();
}

let baseline: BaselineTree;
let sys: MixedSystem;
beforeAll(async () => {
  baseline = prepareBaseline();
  sys = await startMixedSystem(baseline.root, allAt('v1.0.0'));
}, 20 * 60_000);
afterAll(async () => sys?.close(), 60_000);

describe('the ledgers of migrations', () => {
  it('when the kit lists the migrations v1.0.0 shipped, then they are exactly those of the v1.0.0 tree', () => {
    const shipped = new Set(SERVICES.flatMap((s) => migrationNames(baseline.root, s)));
    expect([...V1_0_0_MIGRATIONS].sort()).toEqual([...shipped].sort());
  });
});

describe('v1.0.0 databases with data, migrated to HEAD', () => {
  it(
    "when every service moves from v1.0.0 to HEAD, then HEAD's API reads back what v1.0.0 wrote, " +
      "a v1.0.0 idempotency key still replays, and v1.0.0's ledger names only v1.0.0's migrations",
    async () => {
      const gw = sys.gateway;
      const get = async (url: string, headers: Record<string, string>) => {
        const res = await call(gw, 'GET', url, headers);
        expect({ url, status: res.status }).toEqual({ url, status: 200 });
        return res.body;
      };

      // Written through v1.0.0: a submitted and decided case with its document and letter (applications, documents,
      // letters), a concept kept with an idempotency key (gateway), a flag (reference), their audit rows (audit).
      const drafter = practitioner();
      const localId = randomUUID();
      const created = await call(gw, 'POST', '/api/v1/applications', drafter, { type: 'intake' });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      const upload = await call(
        gw,
        'POST',
        '/api/v1/uploads',
        drafter,
        uploadForm('intake', 'diploma', diplomaPdf(), 'diploma.pdf', id, localId),
      );
      expect(upload.status).toBe(201);
      const documentId = upload.body.documentId as string;
      const submit = await call(gw, 'POST', `/api/v1/applications/${id}/submit`, drafter, {
        diplomaHerkomst: 'handmatig',
        uren: 3000,
        documents: [{ categoryId: 'diploma', channel: 'digitaal', documentId }],
      });
      expect(submit.status).toBe(200);
      const referentie = submit.body.referentie as string;
      const besluit = await call(gw, 'POST', `/api/v1/beoordeling/${id}/besluit`, users.beoordelaar, {
        besluit: 'afwijzen',
        toelichting: 'Het diploma is niet erkend.',
      });
      expect(besluit.status).toBe(200);
      const briefUrl = `/api/v1/brief?referentie=${encodeURIComponent(referentie)}`;
      await eventually(
        async () => ((await call(gw, 'GET', briefUrl, drafter)).status === 200 ? true : undefined),
        30_000,
      );
      // The shared working brief is written on first use or by letters' job at start: made now, so that both versions
      // count the same letters (the org template's `unsentBriefs`).
      expect((await call(gw, 'GET', '/api/v1/brief', drafter)).status).toBe(200);

      const keyOwner = practitioner();
      const key = randomUUID();
      const keyed = () =>
        fetch(`${gw}/api/v1/applications`, {
          method: 'POST',
          headers: { ...keyOwner, 'Idempotency-Key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'intake' }),
        });
      const first = await keyed();
      expect(first.status).toBe(201);
      const firstBody = await first.text();

      const flagCorrelation = `upgrade-flag-${randomUUID()}`;
      expect(
        (
          await call(
            gw,
            'PUT',
            '/api/v1/admin/flags/herregistratie-aanvragen',
            { ...users.admin, 'X-Correlation-Id': flagCorrelation },
            { enabled: true },
          )
        ).status,
      ).toBe(204);
      const auditUrl = `/api/v1/admin/audit?limit=100&correlationId=${encodeURIComponent(flagCorrelation)}`;
      await eventually(async () => ((await get(auditUrl, users.admin)).length === 1 ? true : undefined), 30_000);

      const reads: Array<[string, Record<string, string>]> = [
        [`/api/v1/applications/${id}`, drafter],
        ['/api/v1/applications', drafter],
        ['/api/v1/applications', keyOwner],
        [`/api/v1/uploads/status?localIds=${localId}`, drafter],
        [briefUrl, drafter],
        [`/api/v1/beoordeling/${id}`, users.beoordelaar],
        ['/api/v1/admin/org-template/register', users.admin],
        ['/api/v1/flags', users.admin],
        [auditUrl, users.admin],
      ];
      const before = new Map<string, unknown>();
      for (const [url, headers] of reads) before.set(`${url} ${headers['X-Subject'] ?? ''}`, await get(url, headers));
      const contentBefore = await fetch(`${gw}/api/v1/uploads/${documentId}/content`, { headers: drafter });
      expect(contentBefore.status).toBe(200);
      const bytesBefore = Buffer.from(await contentBefore.arrayBuffer());

      // Every service to HEAD, one after the other (consumers first, as a deployment rolls them).
      for (const service of SERVICES) await sys.run(service, 'HEAD');
      expect(sys.versions()).toEqual(allAt('HEAD'));

      for (const [url, headers] of reads)
        expect(await get(url, headers)).toMatchObject(before.get(`${url} ${headers['X-Subject'] ?? ''}`) as object);
      const contentAfter = await fetch(`${gw}/api/v1/uploads/${documentId}/content`, { headers: drafter });
      expect(contentAfter.status).toBe(200);
      expect(Buffer.from(await contentAfter.arrayBuffer()).equals(bytesBefore)).toBe(true);
      const replay = await keyed();
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(await replay.text()).toBe(firstBody);

      // Each database carries HEAD's migrations; v1.0.0's ledger names none it does not know, so a v1.0.0 pod still
      // starts on it (the mixed-version test starts them).
      for (const service of SERVICES) {
        const ledger = async (table: string) =>
          (await sys.query<{ name: string }>(service, `SELECT name FROM ${table}`)).map((r) => r.name);
        const v1 = await ledger(V1_LEDGER);
        const later = await ledger(LATER_LEDGER);
        expect({ service, v1: v1.sort() }).toEqual({ service, v1: migrationNames(baseline.root, service) });
        expect({ service, all: [...v1, ...later].sort() }).toEqual({
          service,
          all: migrationNames(HEAD_ROOT, service),
        });
      }
    },
    300_000,
  );
});
