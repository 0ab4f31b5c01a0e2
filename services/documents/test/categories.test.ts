import { asService, asUser, caseHandler, practitioner, uniqueSubject } from '@register/testkit';
import { startDocumentsSystem, type DocumentsSystem } from './support/system';

let h: DocumentsSystem;
beforeAll(async () => {
  h = await startDocumentsSystem();
});
afterAll(async () => {
  await h.close();
});

const publicCategories = (query: string) =>
  fetch(`${h.url}/api/v1/uploads/categories?${query}`, { headers: asUser(practitioner(uniqueSubject())) });
const requiredOf = async (res: Response) => {
  expect(res.status).toBe(200);
  const body = (await res.json()) as { categories: Array<{ categoryId: string; required: boolean }> };
  return Object.fromEntries(body.categories.map((c) => [c.categoryId, c.required]));
};

describe('GET /api/v1/uploads/categories', () => {
  it.each([
    ['wizardId=intake', { diploma: false, taalvaardigheid: false, overig: false }],
    ['wizardId=intake&taalvaardigheid=ja', { diploma: false, taalvaardigheid: false, overig: false }],
    ['wizardId=intake&diplomaHerkomst=digitaal', { diploma: false, taalvaardigheid: false, overig: false }],
    ['wizardId=intake&diplomaHerkomst=handmatig', { diploma: true, taalvaardigheid: false, overig: false }],
    [
      'wizardId=intake&diplomaHerkomst=digitaal&taalvaardigheid=ja',
      { diploma: false, taalvaardigheid: true, overig: false },
    ],
    [
      'wizardId=intake&diplomaHerkomst=handmatig&taalvaardigheid=nee',
      { diploma: true, taalvaardigheid: false, overig: false },
    ],
    ['wizardId=herregistratie', { werkervaring: true, scholing: false, overig: false }],
    ['wizardId=orgtemplate', { 'organisatie-logo': false }],
  ])('when %s, then required is %j', async (query, expected) => {
    expect(await requiredOf(await publicCategories(query))).toEqual(expected);
  });

  it(
    'when categories are listed, ' + 'then every field is present with Dutch labels and the limits of ADR 0006',
    async () => {
      const res = await publicCategories('wizardId=orgtemplate');
      expect(await res.json()).toEqual({
        categories: [
          {
            categoryId: 'organisatie-logo',
            label: 'Organisatielogo',
            description: expect.any(String),
            required: false,
            acceptedTypes: ['image/png', 'image/svg+xml'],
            maxSizeMb: 1,
            multiple: false,
            allowPostDelivery: false,
          },
        ],
      });
    },
  );

  it(
    'when the wizard is unknown or an answer is not a known value, ' +
      'then 400; without identity 401; a case handler 403',
    async () => {
      expect((await publicCategories('wizardId=onbekend')).status).toBe(400);
      expect((await publicCategories('diplomaHerkomst=handmatig')).status).toBe(400);
      expect((await publicCategories('wizardId=intake&diplomaHerkomst=per-post')).status).toBe(400);
      expect(
        (await fetch(`${h.url}/api/v1/uploads/categories?wizardId=intake`, { headers: asUser(null) })).status,
      ).toBe(401);
      expect(
        (await fetch(`${h.url}/api/v1/uploads/categories?wizardId=intake`, { headers: asUser(caseHandler('m-1')) }))
          .status,
      ).toBe(403);
    },
  );

  it('when another service asks the internal route, then it gets the same computation; a user gets 403', async () => {
    const query = 'wizardId=intake&diplomaHerkomst=handmatig&taalvaardigheid=ja';
    const internal = await fetch(`${h.url}/internal/uploads/categories?${query}`, {
      headers: asService('applications'),
    });
    const pub = await publicCategories(query);
    expect(await internal.json()).toEqual(await pub.json());
    expect(
      (await fetch(`${h.url}/internal/uploads/categories?${query}`, { headers: asUser(practitioner(uniqueSubject())) }))
        .status,
    ).toBe(403);
  });

  it('when the OpenAPI document is read, then it lists the public upload routes and no internal route', async () => {
    const res = await fetch(`${h.url}/openapi.json`);
    const doc = (await res.json()) as { paths: Record<string, unknown> };
    expect(doc).toHaveProperty('paths');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/uploads',
        '/api/v1/uploads/categories',
        '/api/v1/uploads/status',
        '/api/v1/uploads/{documentId}/content',
        '/api/v1/admin/uploads/{documentId}',
      ]),
    );
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/internal'))).toBe(false);
  });
});
