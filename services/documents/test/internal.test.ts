import { asService, asUser, practitioner, uniqueSubject } from '@register/testkit';
import { pdf, png, startDocumentsSystem, upload, uploadPdf, type DocumentsSystem } from './support/system';

let h: DocumentsSystem;
beforeAll(async () => {
  h = await startDocumentsSystem();
});
afterAll(async () => {
  await h.close();
});

const post = (path: string, body: unknown, headers = asService('applications')) =>
  fetch(`${h.url}${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const pollStatus = async (subject: string, localId: string) =>
  (
    (await (
      await fetch(`${h.url}/api/v1/uploads/status?localIds=${localId}`, { headers: asUser(practitioner(subject)) })
    ).json()) as { results: Array<{ status: string }> }
  ).results[0]?.status;

describe('/internal/*', () => {
  it('when a user (not a service) calls an internal route, then 403', async () => {
    expect(
      (
        await post(
          '/internal/links',
          { applicationId: 'a', owner: 'x', documents: [] },
          asUser(practitioner(uniqueSubject())),
        )
      ).status,
    ).toBe(403);
    expect(
      (await fetch(`${h.url}/internal/applications/a/documents`, { headers: asUser(practitioner(uniqueSubject())) }))
        .status,
    ).toBe(403);
  });

  it('when the lookup the applications service no longer asks is called, then it is gone (404)', async () => {
    expect((await post('/internal/documents/lookup', { owner: 'x', documentIds: [] })).status).toBe(404);
  });
});

describe('POST /internal/documents/link-check', () => {
  const check = (body: unknown) => post('/internal/documents/link-check', body);

  it(
    "when every document is the owner's, in its category and free or linked " +
      'to this application, then nothing is rejected and nothing is linked',
    async () => {
      const owner = uniqueSubject();
      const free = await uploadPdf(h, owner, { localId: 'check-free' });
      const here = await uploadPdf(h, owner);
      expect(
        (
          await post('/internal/links', {
            applicationId: 'app-check-ok',
            owner,
            documents: [{ documentId: here.documentId, categoryId: 'overig' }],
          })
        ).status,
      ).toBe(200);
      const res = await check({
        applicationId: 'app-check-ok',
        owner,
        documents: [
          { documentId: free.documentId, categoryId: 'overig' },
          { documentId: here.documentId, categoryId: 'overig' },
        ],
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ rejected: [] });
      expect(await pollStatus(owner, 'check-free')).toBe('ontvangen');
    },
  );

  it(
    'when documents are foreign, unknown, malformed, in another category or ' +
      'linked elsewhere, then each is rejected by its index and nothing is linked',
    async () => {
      const owner = uniqueSubject();
      const free = await uploadPdf(h, owner, { localId: 'check-mixed' });
      const elsewhere = await uploadPdf(h, owner);
      const foreign = await uploadPdf(h, uniqueSubject());
      expect(
        (
          await post('/internal/links', {
            applicationId: 'app-check-other',
            owner,
            documents: [{ documentId: elsewhere.documentId, categoryId: 'overig' }],
          })
        ).status,
      ).toBe(200);
      const res = await check({
        applicationId: 'app-check',
        owner,
        documents: [
          { documentId: free.documentId, categoryId: 'overig' },
          { documentId: foreign.documentId, categoryId: 'overig' },
          { documentId: free.documentId, categoryId: 'diploma' },
          { documentId: elsewhere.documentId, categoryId: 'overig' },
          { documentId: '00000000-0000-4000-8000-000000000000', categoryId: 'overig' },
          { documentId: 'not-a-uuid', categoryId: 'overig' },
        ],
      });
      expect(res.status).toBe(200);
      const invalid = (i: number) => ({
        field: `documents[${i}].documentId`,
        code: 'invalid-document',
        detail: 'Not an upload of the caller in this category.',
      });
      expect(await res.json()).toEqual({ rejected: [invalid(1), invalid(2), invalid(3), invalid(4), invalid(5)] });
      expect(await pollStatus(owner, 'check-mixed')).toBe('ontvangen');
      expect(
        await (
          await fetch(`${h.url}/internal/applications/app-check/documents`, { headers: asService('applications') })
        ).json(),
      ).toEqual([]);
    },
  );

  it(
    'when the check and the link are asked the same, then they agree: ' +
      'a rejected check is a refused link, a clean check links',
    async () => {
      const owner = uniqueSubject();
      const mine = await uploadPdf(h, owner);
      const wrong = {
        applicationId: 'app-agree',
        owner,
        documents: [{ documentId: mine.documentId, categoryId: 'scholing' }],
      };
      expect((await (await check(wrong)).json()).rejected).toHaveLength(1);
      expect((await post('/internal/links', wrong)).status).toBe(422);
      const right = { ...wrong, documents: [{ documentId: mine.documentId, categoryId: 'overig' }] };
      expect((await (await check(right)).json()).rejected).toEqual([]);
      expect((await post('/internal/links', right)).status).toBe(200);
    },
  );

  it('when the body is malformed, then 400 validation; a user gets 403', async () => {
    const malformed = await check({ owner: 'x' });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).type).toBe('/problems/validation');
    expect(
      (
        await check({
          applicationId: 'a',
          owner: 'x',
          documents: Array.from({ length: 101 }, () => ({ documentId: 'd', categoryId: 'overig' })),
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await post(
          '/internal/documents/link-check',
          { applicationId: 'a', owner: 'x', documents: [] },
          asUser(practitioner(uniqueSubject())),
        )
      ).status,
    ).toBe(403);
  });
});

describe('POST /internal/links', () => {
  it('when the same link call is repeated, then the answer is the same and nothing changes', async () => {
    const owner = uniqueSubject();
    const a = await uploadPdf(h, owner, { localId: 'link-a' });
    const b = await uploadPdf(h, owner);
    const body = {
      applicationId: 'app-1',
      owner,
      documents: [
        { documentId: a.documentId, categoryId: 'overig' },
        { documentId: b.documentId, categoryId: 'overig' },
      ],
    };
    const first = await post('/internal/links', body);
    expect(first.status).toBe(200);
    const firstBody = await first.json();
    expect(firstBody).toEqual({
      linked: [
        { documentId: a.documentId, categoryId: 'overig', fileName: 'bewijs.pdf' },
        { documentId: b.documentId, categoryId: 'overig', fileName: 'bewijs.pdf' },
      ],
    });
    const again = await post('/internal/links', body);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(firstBody);
    expect(await pollStatus(owner, 'link-a')).toBe('gekoppeld');
    const listed = await fetch(`${h.url}/internal/applications/app-1/documents`, {
      headers: asService('applications'),
    });
    expect(await listed.json()).toEqual(firstBody.linked);
  });

  it(
    'when one document is foreign, in another category or linked elsewhere, ' +
      'then 422 names each and nothing is linked',
    async () => {
      const owner = uniqueSubject();
      const free = await uploadPdf(h, owner, { localId: 'free' });
      const elsewhere = await uploadPdf(h, owner);
      const foreign = await uploadPdf(h, uniqueSubject());
      expect(
        (
          await post('/internal/links', {
            applicationId: 'app-other',
            owner,
            documents: [{ documentId: elsewhere.documentId, categoryId: 'overig' }],
          })
        ).status,
      ).toBe(200);
      const res = await post('/internal/links', {
        applicationId: 'app-2',
        owner,
        documents: [
          { documentId: free.documentId, categoryId: 'overig' },
          { documentId: foreign.documentId, categoryId: 'overig' },
          { documentId: free.documentId, categoryId: 'diploma' },
          { documentId: elsewhere.documentId, categoryId: 'overig' },
        ],
      });
      expect(res.status).toBe(422);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      const problem = await res.json();
      expect(problem).toMatchObject({ type: '/problems/links-rejected', status: 422 });
      expect(problem.errors.map((e: { code: string }) => e.code)).toEqual([
        'unknown-document',
        'category-mismatch',
        'linked-elsewhere',
      ]);
      expect(await pollStatus(owner, 'free')).toBe('ontvangen');
      expect(
        await (
          await fetch(`${h.url}/internal/applications/app-2/documents`, { headers: asService('applications') })
        ).json(),
      ).toEqual([]);
    },
  );

  it('when the body is malformed, then 400 validation', async () => {
    expect((await post('/internal/links', { owner: 'x' })).status).toBe(400);
  });
});

describe('POST /internal/org-logos/:documentId/confirm', () => {
  it('when the document is an organisatie-logo upload, then 200; another category or unknown id is 404', async () => {
    const logo = await (
      await upload(h, practitioner(uniqueSubject(), 'admin'), {
        wizardId: 'orgtemplate',
        categoryId: 'organisatie-logo',
        file: { bytes: png(), name: 'logo.png' },
      })
    ).json();
    const confirm = (id: string) => post(`/internal/org-logos/${id}/confirm`, {}, asService('letters'));
    const ok = await confirm(logo.documentId);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ documentId: logo.documentId });
    expect((await confirm((await uploadPdf(h, uniqueSubject())).documentId)).status).toBe(404);
    expect((await confirm('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await confirm('not-an-id')).status).toBe(404);
  });
});

describe('GET /internal/org-logos/:documentId/content', () => {
  const logoContent = (id: string, headers: Record<string, string> = asService('letters')) =>
    fetch(`${h.url}/internal/org-logos/${encodeURIComponent(id)}/content`, { headers });

  it(
    'when a service reads an organisatie-logo upload, then 200 with its exact ' +
      'bytes and type; another category, an unknown or malformed id is a bare 404',
    async () => {
      const bytes = png();
      const logo = await (
        await upload(h, practitioner(uniqueSubject(), 'admin'), {
          wizardId: 'orgtemplate',
          categoryId: 'organisatie-logo',
          file: { bytes, name: 'logo.png' },
        })
      ).json();
      const res = await logoContent(logo.documentId);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
      for (const id of [
        (await uploadPdf(h, uniqueSubject())).documentId,
        '00000000-0000-4000-8000-000000000000',
        'not-an-id',
      ]) {
        const other = await logoContent(id);
        expect(other.status).toBe(404);
        expect(await other.text()).toBe('');
      }
    },
  );

  it('when a portal user (not a service) asks, then 403', async () => {
    const logo = await (
      await upload(h, practitioner(uniqueSubject(), 'admin'), {
        wizardId: 'orgtemplate',
        categoryId: 'organisatie-logo',
        file: { bytes: png(), name: 'logo.png' },
      })
    ).json();
    const res = await logoContent(logo.documentId, asUser(practitioner(uniqueSubject(), 'admin')));
    expect(res.status).toBe(403);
  });
});

describe('GET /internal/applications/:applicationId/documents/:documentId/content', () => {
  const content = (
    applicationId: string,
    documentId: string,
    headers: Record<string, string> = asService('applications'),
  ) =>
    fetch(
      `${h.url}/internal/applications/${encodeURIComponent(applicationId)}` +
        `/documents/${encodeURIComponent(documentId)}/content`,
      { headers },
    );
  /** A PDF of `owner` with these bytes, linked to `applicationId`. */
  async function linkedPdf(owner: string, applicationId: string, bytes: Buffer, name = 'bewijs.pdf'): Promise<string> {
    const res = await upload(h, practitioner(owner), {
      wizardId: 'intake',
      categoryId: 'overig',
      file: { bytes, name, type: 'application/pdf' },
    });
    expect(res.status).toBe(201);
    const { documentId } = await res.json();
    expect(
      (await post('/internal/links', { applicationId, owner, documents: [{ documentId, categoryId: 'overig' }] }))
        .status,
    ).toBe(200);
    return documentId as string;
  }

  it(
    'when a service reads a document linked to that application, ' +
      'then 200 with the exact bytes, their type, length and file name',
    async () => {
      const owner = uniqueSubject();
      const bytes = Buffer.concat([pdf(300), Buffer.from(`${owner}\u00e9`, 'utf8'), Buffer.from([0, 1, 2, 255])]);
      const documentId = await linkedPdf(owner, 'app-content', bytes, 'diploma (2024) é.pdf');

      const res = await content('app-content', documentId);

      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('content-length')).toBe(String(bytes.length));
      expect(res.headers.get('content-disposition')).toBe(
        "attachment; filename*=UTF-8''diploma%20%282024%29%20%C3%A9.pdf",
      );
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    },
  );

  it('when the document is linked to another application, not linked at all, or unknown, then a bare 404', async () => {
    const owner = uniqueSubject();
    const elsewhere = await linkedPdf(owner, 'app-content-other', pdf());
    const unlinked = (await uploadPdf(h, owner)).documentId;

    for (const [applicationId, documentId] of [
      ['app-content-mine', elsewhere],
      ['app-content-mine', unlinked],
      ['app-content-mine', '00000000-0000-4000-8000-000000000000'],
      ['app-content-mine', 'not-an-id'],
    ]) {
      const res = await content(applicationId!, documentId!);
      expect([documentId, res.status, await res.text()]).toEqual([documentId, 404, '']);
    }
    expect((await content('app-content-other', elsewhere)).status).toBe(200);
  });

  it(
    'when the caller is not a service (a practitioner, ' +
      'the owner included, or nobody), then it is refused and no byte is sent',
    async () => {
      const owner = uniqueSubject();
      const documentId = await linkedPdf(owner, 'app-content-user', pdf());

      const asOwner = await content('app-content-user', documentId, asUser(practitioner(owner)));
      const anonymous = await content('app-content-user', documentId, {});

      expect(asOwner.status).toBe(403);
      expect(asOwner.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(anonymous.status).toBe(401);
      expect((await content('app-content-user', documentId)).status).toBe(200);
    },
  );
});
