import { checkRejectionsOf, linkErrorOf, linkRefusals, type LinkCandidate } from '../src/links/link-rules';

// The one link rule, which both link-check and the link ask: a table of cases.
const doc = (id: string, category: string, linkedTo: string | null = null): LinkCandidate => ({
  id,
  category_id: category,
  linked_application_id: linkedTo,
});
const owned = new Map(
  [
    doc('free', 'overig'),
    doc('diploma', 'diploma'),
    doc('here', 'overig', 'app-1'),
    doc('there', 'overig', 'app-2'),
  ].map((d) => [d.id, d]),
);
const request = (...documents: Array<[string, string]>) => ({
  applicationId: 'app-1',
  owner: 'o',
  documents: documents.map(([documentId, categoryId]) => ({ documentId, categoryId })),
});

describe('linkRefusals', () => {
  it.each([
    ['a free document of the owner in its category', request(['free', 'overig']), false, []],
    ['a document already linked to this application', request(['here', 'overig']), false, []],
    ['no documents', request(), false, []],
    [
      'a document that is not the owner’s (or does not exist)',
      request(['foreign', 'overig']),
      false,
      [{ reason: 'unknown-document', index: 0 }],
    ],
    [
      'a document in another category',
      request(['free', 'overig'], ['diploma', 'overig']),
      false,
      [{ reason: 'category-mismatch', index: 1, categoryId: 'diploma' }],
    ],
    [
      'a document linked to another application',
      request(['there', 'overig']),
      false,
      [{ reason: 'linked-elsewhere', index: 0 }],
    ],
    [
      'a deleted application, whatever the documents',
      request(['free', 'overig'], ['foreign', 'overig']),
      true,
      [{ reason: 'application-deleted' }],
    ],
    [
      'several refused documents, each by its index',
      request(['foreign', 'overig'], ['free', 'overig'], ['there', 'overig']),
      false,
      [
        { reason: 'unknown-document', index: 0 },
        { reason: 'linked-elsewhere', index: 2 },
      ],
    ],
  ])('when %s, then the refusals are %j', (_case, req, deleted, expected) => {
    expect(linkRefusals(req, owned, deleted)).toEqual(expected.map((e) => expect.objectContaining(e)));
  });
});

describe('refusals as answered', () => {
  it('when the link refuses, then each refusal keeps the 422 field and code of the links contract', () => {
    const refusals = linkRefusals(
      request(['foreign', 'overig'], ['diploma', 'overig'], ['there', 'overig']),
      owned,
      false,
    );
    expect(refusals.map(linkErrorOf).map(({ field, code }) => ({ field, code }))).toEqual([
      { field: 'documents.0.documentId', code: 'unknown-document' },
      { field: 'documents.1.categoryId', code: 'category-mismatch' },
      { field: 'documents.2.documentId', code: 'linked-elsewhere' },
    ]);
  });

  it(
    'when link-check answers, then every refused document is ' +
      'documents[i].documentId invalid-document; a deleted case refuses each',
    () => {
      const req = request(['foreign', 'overig'], ['diploma', 'overig'], ['there', 'overig'], ['free', 'overig']);
      const invalid = (i: number) => ({
        field: `documents[${i}].documentId`,
        code: 'invalid-document',
        detail: 'Not an upload of the caller in this category.',
      });
      expect(checkRejectionsOf(linkRefusals(req, owned, false), req)).toEqual([invalid(0), invalid(1), invalid(2)]);
      expect(checkRejectionsOf(linkRefusals(req, owned, true), req).map((r) => [r.field, r.code])).toEqual(
        [0, 1, 2, 3].map((i) => [`documents[${i}].documentId`, 'application-deleted']),
      );
    },
  );
});
