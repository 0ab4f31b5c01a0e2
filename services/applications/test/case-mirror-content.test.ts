import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { asService, asUser, caseHandler, eventually, practitioner, uniqueSubject } from '@register/testkit';
import { as } from './support/neighbours-system';
import {
  mirrored as mirroredIn,
  startMirrorSystem,
  submitIntake,
  type MirrorSystem,
  type UploadFile,
} from './support/mirror-system';

// ADR 0011: per digital document an information object with its content (base64 `inhoud`, `bestandsomvang`,
// `bestandsnaam`, `formaat`), read from the documents service's internal content route.
let system: MirrorSystem;
beforeAll(async () => {
  // A 25 MiB document (the largest category) is 33 MiB of JSON to the case system: more than the 2 s of the other
  // mirror tests.
  system = await startMirrorSystem({ env: { ZGW_TIMEOUT_MS: '20000' } });
}, 120_000);
afterAll(() => system.close());
afterEach(() => system.sim.faults.clear());

const mirrored = (referentie: string, counts?: { statussen?: number; documents?: number }) =>
  mirroredIn(system, referentie, counts);

/** A PDF the documents service accepts, padded with random bytes (no two documents alike) to `size`. */
function pdfFile(name: string, size = 2000): UploadFile {
  const head = Buffer.from(
    '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n%',
  );
  return { name, bytes: Buffer.concat([head, randomBytes(size - head.length)]) };
}

/** The case's information objects, by their identificatie (`<referentie>-D<n>`, n in submit order). */
const documentsOf = (referentie: string) =>
  new Map(
    system.sim.state
      .documenten()
      .filter((d) => String(d['identificatie']).startsWith(`${referentie}-`))
      .map((d) => [String(d['identificatie']), d]),
  );

describe('the information object of a document (ADR 0011)', () => {
  it(
    'when an intake with two documents is mirrored, then each information object ' +
      'holds the exact bytes of its upload with its name, media type and size',
    async () => {
      const files = [pdfFile('diploma verpleegkunde.pdf', 3000), pdfFile('cijferlijst (2024).pdf', 5000)];

      const { referentie } = await submitIntake(system, uniqueSubject(), files);

      await mirrored(referentie, { documents: 2 });
      const objects = documentsOf(referentie);
      for (const [i, file] of files.entries()) {
        const object = objects.get(`${referentie}-D${i + 1}`)!;
        expect(object).toMatchObject({
          bestandsnaam: file.name,
          titel: file.name,
          formaat: 'application/pdf',
          bestandsomvang: file.bytes.length,
          inhoud: `${String(object['url'])}/download?versie=1`,
        });
        expect(system.sim.state.documentContent(String(object['url']))?.equals(file.bytes)).toBe(true);
      }
    },
  );

  it(
    'when a document is 25 MiB (the largest category, overig), then its bytes arrive ' +
      'whole, each create accepted by the case system at once',
    async () => {
      const file = pdfFile('groot.pdf', 25 * 1024 * 1024);
      const log = system.sim.state.requests().length;

      const { referentie } = await submitIntake(system, uniqueSubject(), [pdfFile('diploma.pdf'), file]);

      await mirrored(referentie, { documents: 2 });
      const object = documentsOf(referentie).get(`${referentie}-D2`)!;
      expect(object['bestandsomvang']).toBe(file.bytes.length);
      expect(system.sim.state.documentContent(String(object['url']))?.equals(file.bytes)).toBe(true);
      const creates = system.sim.state
        .requests()
        .slice(log)
        .filter((r) => r.operationId === 'enkelvoudiginformatieobject_create');
      expect(creates.map((r) => r.status)).toEqual([201, 201]);
    },
    60_000,
  );

  it(
    'when the documents service is away at the document step, then the case waits ' +
      '(no divergence, no audit row) and is completed with the content once it is back',
    async () => {
      // The zaak create waits until the documents service is down, so the mirror asks for the bytes only then.
      const hold = system.sim.faults.add({ path: '/zaken/api/v1/zaken', method: 'POST', mode: 'hold', count: 1 });
      const subject = uniqueSubject();
      const file = pdfFile('bewijs.pdf');
      const { id, referentie, correlationId } = await submitIntake(system, subject, [file]);
      await system.sim.faults.waitForHeld(hold.id);
      await system.documents.kill();
      system.sim.faults.release(hold.id);
      try {
        const waiting = await eventually(async () => {
          const row = (
            await sql<{
              state: string;
              last_error: string | null;
            }>`SELECT state, last_error FROM case_mirrors WHERE referentie = ${referentie}`.execute(system.apps.db)
          ).rows[0];
          return row?.last_error?.startsWith('documents service') ? row : undefined;
        });
        expect(waiting.state).toBe('pending');
        const [view] = system.sim.state.zakenWithIdentificatie(referentie);
        expect([view!.statussen.length, view!.rollen.length, view!.zaakinformatieobjecten.length]).toEqual([1, 1, 0]);
        expect((await as.practitioner(system, subject).get(`/api/v1/applications/${id}`)).body.status).toMatchObject({
          manual: false,
          reden: null,
        });
      } finally {
        await system.documents.start();
      }

      await mirrored(referentie, { documents: 1 });
      expect(
        system.sim.state
          .documentContent(String(documentsOf(referentie).get(`${referentie}-D1`)!['url']))
          ?.equals(file.bytes),
      ).toBe(true);
      expect(
        system
          .audits('zaaksysteem-divergentie')
          .filter((e) => e.data.resource === `case/${referentie}` && e.correlationId === correlationId),
      ).toHaveLength(0);
      expect((await as.practitioner(system, subject).get(`/api/v1/applications/${id}`)).body.status).toMatchObject({
        manual: false,
        reden: null,
      });
    },
    60_000,
  );
});

describe('GET /internal/applications/:applicationId/documents/:documentId/content (the route the mirror reads)', () => {
  const content = (applicationId: string, documentId: string, headers: Record<string, string>) =>
    fetch(`${system.documents.url}/internal/applications/${applicationId}/documents/${documentId}/content`, {
      headers,
    });

  it(
    'when the applications service asks for a document the application does not ' +
      'have, or an unknown one, then a bare 404',
    async () => {
      const mine = await submitIntake(system, uniqueSubject(), [pdfFile('a.pdf')]);
      const other = await submitIntake(system, uniqueSubject(), [pdfFile('b.pdf')]);
      await Promise.all([mirrored(mine.referentie, { documents: 1 }), mirrored(other.referentie, { documents: 1 })]);

      const foreign = await content(mine.id, other.docs[0]!, asService('applications'));
      const unknown = await content(mine.id, '00000000-0000-4000-8000-000000000000', asService('applications'));
      const own = await content(mine.id, mine.docs[0]!, asService('applications'));

      expect([foreign.status, await foreign.text()]).toEqual([404, '']);
      expect([unknown.status, await unknown.text()]).toEqual([404, '']);
      expect(own.status).toBe(200);
      await own.body?.cancel();
    },
  );

  it('when the caller is not a service (the owner, a case handler, nobody), then it is refused', async () => {
    const subject = uniqueSubject();
    const { id, referentie, docs } = await submitIntake(system, subject, [pdfFile('c.pdf')]);
    await mirrored(referentie, { documents: 1 });

    expect((await content(id, docs[0]!, asUser(practitioner(subject)))).status).toBe(403);
    expect((await content(id, docs[0]!, asUser(caseHandler('mw-1', ['beoordelaar'])))).status).toBe(403);
    expect((await content(id, docs[0]!, {})).status).toBe(401);
  });
});
