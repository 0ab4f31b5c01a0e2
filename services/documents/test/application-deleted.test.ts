import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { V1_VARIANTS, asService, eventually, natsUrl, testEvents, uniqueSubject, v1Event } from '@register/testkit';
import { applications } from '@register/contracts';
import { connectEvents, createLogger, newEvent, type NatsEvents } from '@register/service-kit';
import { startDocumentsSystem, uploadPdf, type DocumentsSystem } from './support/system';

// An admin deletes a case in the applications service; the event reaches this service over the real
// NATS, and the case's documents (rows and bytes) go with it.

let h: DocumentsSystem;
let events: NatsEvents;
beforeAll(async () => {
  h = await startDocumentsSystem();
  events = await connectEvents(natsUrl(), 'documents-test-producer', createLogger('documents-test', 'silent'), {
    name: testEvents().stream,
    prefix: testEvents().prefix,
  });
});
afterAll(async () => {
  await events.close();
  await h.close();
});

const link = (applicationId: string, owner: string, documentIds: string[]) =>
  fetch(`${h.url}/internal/links`, {
    method: 'POST',
    headers: { ...asService('applications'), 'content-type': 'application/json' },
    body: JSON.stringify({
      applicationId,
      owner,
      documents: documentIds.map((documentId) => ({ documentId, categoryId: 'overig' })),
    }),
  });
const publishDeleted = (applicationId: unknown) => {
  const envelope = newEvent('application.deleted', { applicationId }, 'corr-delete');
  return events.publish(applications.events.deleted.subject, JSON.stringify(envelope), envelope.id);
};
const rowsOf = async (ids: string[]) =>
  (await sql<{ id: string }>`SELECT id FROM document WHERE id = ANY(${ids}::uuid[])`.execute(h.context.db)).rows
    .map((r) => r.id)
    .sort();
const keysOf = async (ids: string[]) =>
  (
    await sql<{ object_key: string }>`SELECT object_key FROM document WHERE id = ANY(${ids}::uuid[])`.execute(
      h.context.db,
    )
  ).rows.map((r) => r.object_key);

describe('application.deleted', () => {
  // ADR 0228: what v1.0.0 publishes, and the same with a field this consumer does not know, has the same effect.
  it.each(V1_VARIANTS)(
    "when the v1.0.0 sample arrives %s, then the case's linked documents and their bytes are removed",
    async (variant) => {
      const owner = uniqueSubject();
      const applicationId = randomUUID();
      const linked = [(await uploadPdf(h, owner)).documentId];
      const other = (await uploadPdf(h, owner)).documentId;
      expect((await link(applicationId, owner, linked)).status).toBe(200);
      const linkedKeys = await keysOf(linked);

      const { data, envelope } = v1Event(applications.events.deleted.subject, variant, { applicationId });
      const event = { ...newEvent(applications.events.deleted.type, data, 'corr-v1'), ...envelope };
      await events.publish(applications.events.deleted.subject, JSON.stringify(event), event.id);
      await eventually(async () => ((await rowsOf(linked)).length === 0 ? true : undefined));
      await eventually(async () => ((await h.objectKeys()).some((k) => linkedKeys.includes(k)) ? undefined : true));
      expect(await rowsOf([other])).toEqual([other]);
    },
  );

  it(
    'when a case is deleted, then its linked documents and ' +
      "their bytes are removed; the owner's other documents stay",
    async () => {
      const owner = uniqueSubject();
      const applicationId = randomUUID();
      const linked = [(await uploadPdf(h, owner)).documentId, (await uploadPdf(h, owner)).documentId];
      const other = (await uploadPdf(h, owner)).documentId;
      expect((await link(applicationId, owner, linked)).status).toBe(200);
      const linkedKeys = await keysOf(linked);
      const otherKeys = await keysOf([other]);
      expect((await h.objectKeys()).filter((k) => linkedKeys.includes(k))).toHaveLength(2);

      await publishDeleted(applicationId);
      await eventually(async () => ((await rowsOf(linked)).length === 0 ? true : undefined));
      await eventually(async () => ((await h.objectKeys()).some((k) => linkedKeys.includes(k)) ? undefined : true));
      expect(await rowsOf([other])).toEqual([other]);
      expect(await h.objectKeys()).toEqual(expect.arrayContaining(otherKeys));
      const listed = await fetch(`${h.url}/internal/applications/${applicationId}/documents`, {
        headers: asService('applications'),
      });
      expect(await listed.json()).toEqual([]);
    },
  );

  it('when a link to a deleted case arrives late, then it is refused and nothing is linked', async () => {
    const owner = uniqueSubject();
    const applicationId = randomUUID();
    const document = (await uploadPdf(h, owner, { localId: 'late' })).documentId;
    await publishDeleted(applicationId);
    await eventually(async () => {
      const { rows } = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM deleted_application WHERE application_id = ${applicationId}`.execute(
        h.context.db,
      );
      return rows[0]?.n === 1 ? true : undefined;
    });
    const res = await link(applicationId, owner, [document]);
    expect(res.status).toBe(422);
    const problem = (await res.json()) as { type: string; errors: Array<{ field: string; code: string }> };
    expect(problem.type).toBe('/problems/links-rejected');
    expect(problem.errors).toEqual([expect.objectContaining({ field: 'applicationId', code: 'application-deleted' })]);
    const { rows } = await sql<{
      linked_application_id: string | null;
    }>`SELECT linked_application_id FROM document WHERE id = ${document}::uuid`.execute(h.context.db);
    expect(rows).toEqual([{ linked_application_id: null }]);
    const check = await fetch(`${h.url}/internal/documents/link-check`, {
      method: 'POST',
      headers: { ...asService('applications'), 'content-type': 'application/json' },
      body: JSON.stringify({ applicationId, owner, documents: [{ documentId: document, categoryId: 'overig' }] }),
    });
    expect(check.status).toBe(200);
    expect(await check.json()).toEqual({
      rejected: [
        { field: 'documents[0].documentId', code: 'application-deleted', detail: 'The application was deleted.' },
      ],
    });
  });

  it(
    'when the event comes again or a malformed one comes first, ' + 'then nothing breaks and the next event is handled',
    async () => {
      const owner = uniqueSubject();
      const applicationId = randomUUID();
      const document = (await uploadPdf(h, owner)).documentId;
      expect((await link(applicationId, owner, [document])).status).toBe(200);
      await publishDeleted(42);
      await publishDeleted(applicationId);
      await publishDeleted(applicationId);
      await eventually(async () => ((await rowsOf([document])).length === 0 ? true : undefined));
      // Still consuming after the malformed one and the repeat.
      const next = randomUUID();
      const again = (await uploadPdf(h, owner)).documentId;
      expect((await link(next, owner, [again])).status).toBe(200);
      await publishDeleted(next);
      await eventually(async () => ((await rowsOf([again])).length === 0 ? true : undefined));
    },
  );
});
