import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  asService,
  asUser,
  caseHandler,
  eventually,
  natsUrl,
  practitioner,
  testEvents,
  uniqueSubject,
} from '@register/testkit';
import type { Identity } from '@register/authz';
import { pdf, startDocumentsSystem, upload, uploadPdf, type DocumentsSystem } from './support/system';

let h: DocumentsSystem;
let nc: NatsConnection;
beforeAll(async () => {
  h = await startDocumentsSystem();
  nc = await connect({ servers: natsUrl() });
});
afterAll(async () => {
  await nc.close();
  await h.close();
});

const get = (path: string, identity: Identity | null) => fetch(`${h.url}${path}`, { headers: asUser(identity) });
const del = (path: string, identity: Identity | null, correlationId?: string) =>
  fetch(`${h.url}${path}`, { method: 'DELETE', headers: asUser(identity, correlationId) });
const link = (applicationId: string, owner: string, documents: Array<{ documentId: string; categoryId: string }>) =>
  fetch(`${h.url}/internal/links`, {
    method: 'POST',
    headers: { ...asService('applications'), 'content-type': 'application/json' },
    body: JSON.stringify({ applicationId, owner, documents }),
  });

describe('GET /api/v1/uploads/status', () => {
  it('when polling known, foreign and unknown localIds, then only the own ones are found', async () => {
    const owner = uniqueSubject();
    const other = uniqueSubject();
    const mine = await uploadPdf(h, owner, { localId: 'mine-1' });
    const linked = await uploadPdf(h, owner, { localId: 'mine-2' });
    await uploadPdf(h, other, { localId: 'theirs-1' });
    expect((await link('app-status', owner, [{ documentId: linked.documentId, categoryId: 'overig' }])).status).toBe(
      200,
    );
    const res = await get('/api/v1/uploads/status?localIds=mine-1,theirs-1,nobody,mine-2', practitioner(owner));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      results: [
        { localId: 'mine-1', status: 'ontvangen', documentId: mine.documentId },
        { localId: 'theirs-1', status: 'onbekend', documentId: null },
        { localId: 'nobody', status: 'onbekend', documentId: null },
        { localId: 'mine-2', status: 'gekoppeld', documentId: linked.documentId },
      ],
    });
  });

  it('when exactly 100 localIds are asked, then 200 with a result for each (ADR 0006)', async () => {
    const owner = uniqueSubject();
    const mine = await uploadPdf(h, owner, { localId: 'l99' });
    const ids = Array.from({ length: 100 }, (_, i) => `l${i}`);
    const res = await get(`/api/v1/uploads/status?localIds=${ids.join(',')}`, practitioner(owner));
    expect(res.status).toBe(200);
    const { results } = (await res.json()) as {
      results: Array<{ localId: string; status: string; documentId: string | null }>;
    };
    expect(results.map((r) => r.localId)).toEqual(ids);
    expect(results[99]).toEqual({ localId: 'l99', status: 'ontvangen', documentId: mine.documentId });
  });

  it(
    'when more than 100 localIds are asked, then 400 naming localIds; ' + 'without localIds 400; without identity 401',
    async () => {
      const ids = Array.from({ length: 101 }, (_, i) => `l${i}`).join(',');
      const tooMany = await get(`/api/v1/uploads/status?localIds=${ids}`, practitioner(uniqueSubject()));
      expect(tooMany.status).toBe(400);
      expect((await tooMany.json()).errors.map((e: { field: string }) => e.field)).toEqual(['localIds']);
      expect((await get('/api/v1/uploads/status', practitioner(uniqueSubject()))).status).toBe(400);
      expect((await get('/api/v1/uploads/status?localIds=a', null)).status).toBe(401);
    },
  );
});

describe('GET /api/v1/uploads/:documentId/content', () => {
  it('when the owner downloads, then the stored bytes come with the headers of ADR 0006', async () => {
    const owner = uniqueSubject();
    const bytes = pdf(70_000);
    const created = await (
      await upload(h, practitioner(owner), {
        wizardId: 'intake',
        categoryId: 'overig',
        file: { bytes, name: 'mijn bewijs (1).pdf', type: 'image/png' },
      })
    ).json();
    const res = await get(`/api/v1/uploads/${created.documentId}/content`, practitioner(owner));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''mijn%20bewijs%20%281%29.pdf");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it(
    'when another practitioner, or a beoordelaar before linking, ' +
      'asks, then a bare 404; a beoordelaar reads it once linked',
    async () => {
      const owner = uniqueSubject();
      const doc = await uploadPdf(h, owner);
      const path = `/api/v1/uploads/${doc.documentId}/content`;
      const other = await get(path, practitioner(uniqueSubject()));
      expect(other.status).toBe(404);
      expect(await other.text()).toBe('');
      expect((await get(path, caseHandler('m-2'))).status).toBe(404);
      expect((await link('app-content', owner, [{ documentId: doc.documentId, categoryId: 'overig' }])).status).toBe(
        200,
      );
      expect((await get(path, caseHandler('m-2'))).status).toBe(200);
      expect((await get(path, caseHandler('m-3', ['medewerker']))).status).toBe(403);
      expect((await get('/api/v1/uploads/not-a-uuid/content', practitioner(owner))).status).toBe(404);
      expect(
        (await get('/api/v1/uploads/00000000-0000-4000-8000-000000000000/content', practitioner(owner))).status,
      ).toBe(404);
    },
  );
});

describe('DELETE /api/v1/uploads/:documentId', () => {
  it('when another practitioner deletes, then 404; the owner gets 204 and the object is gone', async () => {
    const owner = uniqueSubject();
    const doc = await uploadPdf(h, owner);
    const keys = await h.objectKeys();
    expect((await del(`/api/v1/uploads/${doc.documentId}`, practitioner(uniqueSubject()))).status).toBe(404);
    expect((await del(`/api/v1/uploads/${doc.documentId}`, practitioner(owner))).status).toBe(204);
    expect((await get(`/api/v1/uploads/${doc.documentId}/content`, practitioner(owner))).status).toBe(404);
    expect((await h.objectKeys()).length).toBe(keys.length - 1);
    expect((await del(`/api/v1/uploads/${doc.documentId}`, practitioner(owner))).status).toBe(404);
  });

  it('when the document is linked, then the owner gets 409', async () => {
    const owner = uniqueSubject();
    const doc = await uploadPdf(h, owner);
    await link('app-delete', owner, [{ documentId: doc.documentId, categoryId: 'overig' }]);
    const res = await del(`/api/v1/uploads/${doc.documentId}`, practitioner(owner));
    expect(res.status).toBe(409);
    expect((await res.json()).type).toBe('/problems/conflict');
  });
});

describe('DELETE /api/v1/admin/uploads/:documentId', () => {
  it('when a drafter without the seam asks, then 403; unknown is 404', async () => {
    const doc = await uploadPdf(h, uniqueSubject());
    expect((await del(`/api/v1/admin/uploads/${doc.documentId}`, practitioner(uniqueSubject()))).status).toBe(403);
    expect(
      (await del('/api/v1/admin/uploads/00000000-0000-4000-8000-000000000000', practitioner(uniqueSubject(), 'admin')))
        .status,
    ).toBe(404);
  });

  it.each([
    ['an admin', practitioner(uniqueSubject(), 'admin'), 'admin'],
    [
      'a drafter with the admin seam (ADR 0028)',
      { ...practitioner(uniqueSubject(), 'drafter'), adminSeam: true } satisfies Identity,
      'drafter',
    ],
  ] as const)(
    'when %s deletes a linked document, then 204, the bytes are gone and an audit event arrives on NATS',
    async (_who, deleter, role) => {
      const owner = uniqueSubject();
      const doc = await uploadPdf(h, owner);
      await link('app-admin', owner, [{ documentId: doc.documentId, categoryId: 'overig' }]);
      const correlationId = `admin-delete-${doc.documentId}`;
      const received: Array<Record<string, unknown>> = [];
      // On this run's subjects (its prefix), subscribed before the delete is sent.
      const sub = nc.subscribe(`${testEvents().prefix}register.audit.documents`, {
        callback: (_err, msg) => void received.push(msg.json()),
      });
      await nc.flush();
      expect((await del(`/api/v1/admin/uploads/${doc.documentId}`, deleter, correlationId)).status).toBe(204);
      const event = await eventually(async () => received.find((e) => e['correlationId'] === correlationId));
      sub.unsubscribe();
      expect(event).toMatchObject({
        type: 'audit',
        data: {
          action: 'document:admin-delete',
          resource: `document/${doc.documentId}`,
          decision: 'allow',
          role,
        },
      });
      expect(JSON.stringify(event)).not.toContain(owner);
      expect((await get(`/api/v1/uploads/${doc.documentId}/content`, practitioner(owner))).status).toBe(404);
      expect((await h.objectKeys()).length).toBe(await h.rowCount());
    },
  );
});
