import { zodIssuesToFieldErrors } from '@register/problem';
import { SubmitApplicationRequest } from '../src/submission/submission.schemas';
import type { CategoryRule } from '../src/submission/submission-documents';
import { evaluateSubmit, type FactsQuery, type SubmitOutcome } from '../src/submission/submit-rules';

const intakeHandmatig: CategoryRule[] = [
  { categoryId: 'diploma', required: true, allowPostDelivery: true },
  { categoryId: 'taalvaardigheid', required: false, allowPostDelivery: true },
  { categoryId: 'overig', required: false, allowPostDelivery: false },
];
const intakeDigitaal: CategoryRule[] = intakeHandmatig.map((c) => ({ ...c, required: false }));
const herregistratie: CategoryRule[] = [
  { categoryId: 'werkervaring', required: true, allowPostDelivery: true },
  { categoryId: 'scholing', required: false, allowPostDelivery: true },
  { categoryId: 'overig', required: false, allowPostDelivery: false },
];
/**
 * The documents service's link-check verdict on these fixtures (it alone judges owner, category and links):
 * the caller's uploads in their own category, and one already linked to this application, may be linked;
 * doc-foreign (another owner's), doc-overig as werkervaring (another category) and doc-elsewhere (linked
 * to another application) are refused.
 */
const linkable = new Set([
  'doc-diploma/diploma',
  'doc-werk/werkervaring',
  'doc-overig/overig',
  'doc-mine-linked/werkervaring',
]);
const werk = [{ categoryId: 'werkervaring', channel: 'digitaal', documentId: 'doc-werk' }];

function documentsService(categories: CategoryRule[]) {
  const asked: FactsQuery[] = [];
  const facts = async (query: FactsQuery) => {
    asked.push(query);
    const rejected = query.candidates.flatMap((c, i) =>
      linkable.has(`${c.documentId}/${c.categoryId}`)
        ? []
        : [
            {
              field: `documents[${i}].documentId`,
              code: 'invalid-document',
              detail: 'Not an upload of the caller in this category.',
            },
          ],
    );
    return { categories, rejected };
  };
  return { asked, facts };
}

/** A body as the route receives it: parsed by the operation's schema (its 400 names the field), then the rules. */
async function judge(
  type: 'intake' | 'herregistratie',
  raw: Record<string, unknown>,
  categories: CategoryRule[],
  scholingThreshold = 2080,
): Promise<SubmitOutcome> {
  const body = SubmitApplicationRequest.safeParse(raw);
  if (!body.success)
    return {
      ok: false,
      slug: 'validation',
      detail: 'The request body is invalid.',
      errors: zodIssuesToFieldErrors(body.error),
    };
  return evaluateSubmit(type, body.data, scholingThreshold, documentsService(categories).facts);
}

/** The rule that refuses, with the problem it answers. */
const REFUSED_BY = {
  schema: ['validation', 'The request body is invalid.'],
  answers: ['validation', 'The submission is incomplete.'],
  documents: ['validation', 'The documents do not satisfy the required categories.'],
  scholing: ['scholing-incompleet', 'Below the scholing threshold the scholing answer is incomplete.'],
} as const;
/** `ok`, or the refusing rule and every error it names, as `[field, code]` in order. */
type Expect = 'ok' | [keyof typeof REFUSED_BY, ...Array<[string, string]>];
const cases: Array<[string, 'intake' | 'herregistratie', Record<string, unknown>, CategoryRule[], Expect]> = [
  // Rule 1
  [
    'intake without diplomaHerkomst',
    'intake',
    { uren: 3000 },
    intakeDigitaal,
    ['answers', ['diplomaHerkomst', 'invalid-value']],
  ],
  [
    'intake with an unknown diplomaHerkomst',
    'intake',
    { diplomaHerkomst: 'buitenland', uren: 3000 },
    intakeDigitaal,
    ['answers', ['diplomaHerkomst', 'invalid-value']],
  ],
  [
    'intake without uren',
    'intake',
    { diplomaHerkomst: 'digitaal' },
    intakeDigitaal,
    ['answers', ['uren', 'invalid-value']],
  ],
  [
    'intake with uren 0',
    'intake',
    { diplomaHerkomst: 'digitaal', uren: 0 },
    intakeDigitaal,
    ['answers', ['uren', 'invalid-value']],
  ],
  [
    'intake with fractional uren',
    'intake',
    { diplomaHerkomst: 'digitaal', uren: 10.5 },
    intakeDigitaal,
    ['schema', ['uren', 'invalid_type']],
  ],
  [
    'intake with uren as a string',
    'intake',
    { diplomaHerkomst: 'digitaal', uren: '3000' },
    intakeDigitaal,
    ['schema', ['uren', 'invalid_type']],
  ],
  [
    'herregistratie without uren',
    'herregistratie',
    { documents: werk },
    herregistratie,
    ['answers', ['uren', 'invalid-value']],
  ],
  [
    'uren 0 is decided by rule 1, not S1',
    'intake',
    { diplomaHerkomst: 'digitaal', uren: 0, scholingPunten: 3 },
    intakeDigitaal,
    ['answers', ['uren', 'invalid-value']],
  ],
  // Rule 2
  [
    'handmatig without a diploma document',
    'intake',
    { diplomaHerkomst: 'handmatig', uren: 3000 },
    intakeHandmatig,
    ['documents', ['documents', 'missing-category']],
  ],
  [
    'handmatig with the diploma digitaal',
    'intake',
    {
      diplomaHerkomst: 'handmatig',
      uren: 3000,
      documents: [{ categoryId: 'diploma', channel: 'digitaal', documentId: 'doc-diploma' }],
    },
    intakeHandmatig,
    'ok',
  ],
  [
    'handmatig with the diploma by post',
    'intake',
    { diplomaHerkomst: 'handmatig', uren: 3000, documents: [{ categoryId: 'diploma', channel: 'post' }] },
    intakeHandmatig,
    'ok',
  ],
  ['digitaal needs no documents', 'intake', { diplomaHerkomst: 'digitaal', uren: 3000 }, intakeDigitaal, 'ok'],
  [
    'herregistratie without werkervaring',
    'herregistratie',
    { uren: 100 },
    herregistratie,
    ['documents', ['documents', 'missing-category']],
  ],
  ['herregistratie with werkervaring digitaal', 'herregistratie', { uren: 100, documents: werk }, herregistratie, 'ok'],
  [
    'herregistratie with werkervaring by post',
    'herregistratie',
    { uren: 100, documents: [{ categoryId: 'werkervaring', channel: 'post' }] },
    herregistratie,
    'ok',
  ],
  [
    'post where the category does not allow it',
    'herregistratie',
    { uren: 100, documents: [...werk, { categoryId: 'overig', channel: 'post' }] },
    herregistratie,
    ['documents', ['documents[1].channel', 'post-not-allowed']],
  ],
  [
    'unknown channel',
    'herregistratie',
    { uren: 100, documents: [{ categoryId: 'werkervaring', channel: 'fax' }] },
    herregistratie,
    ['documents', ['documents[0].channel', 'invalid-value'], ['documents', 'missing-category']],
  ],
  [
    'unknown category',
    'herregistratie',
    { uren: 100, documents: [...werk, { categoryId: 'diploma', channel: 'post' }] },
    herregistratie,
    ['documents', ['documents[1].categoryId', 'unknown-category']],
  ],
  [
    'a document of another owner (refused by the documents service)',
    'herregistratie',
    { uren: 100, documents: [{ categoryId: 'werkervaring', channel: 'digitaal', documentId: 'doc-foreign' }] },
    herregistratie,
    ['documents', ['documents[0].documentId', 'invalid-document'], ['documents', 'missing-category']],
  ],
  [
    'a document in another category',
    'herregistratie',
    { uren: 100, documents: [{ categoryId: 'werkervaring', channel: 'digitaal', documentId: 'doc-overig' }] },
    herregistratie,
    ['documents', ['documents[0].documentId', 'invalid-document'], ['documents', 'missing-category']],
  ],
  [
    'a document linked to another application',
    'herregistratie',
    { uren: 100, documents: [{ categoryId: 'werkervaring', channel: 'digitaal', documentId: 'doc-elsewhere' }] },
    herregistratie,
    ['documents', ['documents[0].documentId', 'invalid-document'], ['documents', 'missing-category']],
  ],
  [
    'a document already linked to this application (a retried submit)',
    'herregistratie',
    { uren: 100, documents: [{ categoryId: 'werkervaring', channel: 'digitaal', documentId: 'doc-mine-linked' }] },
    herregistratie,
    'ok',
  ],
  [
    'digitaal without documentId',
    'herregistratie',
    { uren: 100, documents: [{ categoryId: 'werkervaring', channel: 'digitaal' }] },
    herregistratie,
    ['documents', ['documents[0].documentId', 'invalid-document'], ['documents', 'missing-category']],
  ],
  [
    'documents not an array',
    'herregistratie',
    { uren: 100, documents: 'x' },
    herregistratie,
    ['schema', ['documents', 'invalid_type']],
  ],
  [
    'rule 2 is checked before S1',
    'intake',
    { diplomaHerkomst: 'handmatig', uren: 10 },
    intakeHandmatig,
    ['documents', ['documents', 'missing-category']],
  ],
  // Rule S1
  [
    'below the threshold without aanvullendeScholing',
    'intake',
    { diplomaHerkomst: 'digitaal', uren: 2079 },
    intakeDigitaal,
    ['scholing', ['aanvullendeScholing', 'required']],
  ],
  [
    'below the threshold with aanvullendeScholing null',
    'intake',
    { diplomaHerkomst: 'digitaal', uren: 100, aanvullendeScholing: null },
    intakeDigitaal,
    ['scholing', ['aanvullendeScholing', 'required']],
  ],
  [
    'below the threshold, scholing declined',
    'intake',
    { diplomaHerkomst: 'digitaal', uren: 100, aanvullendeScholing: false },
    intakeDigitaal,
    'ok',
  ],
  [
    'below the threshold, declined with punten null',
    'intake',
    { diplomaHerkomst: 'digitaal', uren: 100, aanvullendeScholing: false, scholingPunten: null },
    intakeDigitaal,
    'ok',
  ],
  [
    'below the threshold, declined but punten given',
    'intake',
    { diplomaHerkomst: 'digitaal', uren: 100, aanvullendeScholing: false, scholingPunten: 5 },
    intakeDigitaal,
    ['scholing', ['scholingPunten', 'not-allowed']],
  ],
  [
    'below the threshold, followed without punten',
    'intake',
    { diplomaHerkomst: 'digitaal', uren: 100, aanvullendeScholing: true },
    intakeDigitaal,
    ['scholing', ['scholingPunten', 'invalid-value']],
  ],
  [
    'below the threshold, followed with 0 punten',
    'intake',
    { diplomaHerkomst: 'digitaal', uren: 100, aanvullendeScholing: true, scholingPunten: 0 },
    intakeDigitaal,
    ['scholing', ['scholingPunten', 'invalid-value']],
  ],
  [
    'below the threshold, followed with 1.5 punten',
    'intake',
    { diplomaHerkomst: 'digitaal', uren: 100, aanvullendeScholing: true, scholingPunten: 1.5 },
    intakeDigitaal,
    ['scholing', ['scholingPunten', 'invalid-value']],
  ],
  [
    'below the threshold, followed with 1 punt',
    'intake',
    { diplomaHerkomst: 'digitaal', uren: 100, aanvullendeScholing: true, scholingPunten: 1 },
    intakeDigitaal,
    'ok',
  ],
  [
    'aanvullendeScholing as a string',
    'intake',
    { diplomaHerkomst: 'digitaal', uren: 100, aanvullendeScholing: 'true', scholingPunten: 3 },
    intakeDigitaal,
    ['scholing', ['aanvullendeScholing', 'required']],
  ],
  [
    'at the threshold the scholing answers are ignored',
    'intake',
    { diplomaHerkomst: 'digitaal', uren: 2080, aanvullendeScholing: false, scholingPunten: 5 },
    intakeDigitaal,
    'ok',
  ],
  [
    'above the threshold nothing about scholing is needed',
    'intake',
    { diplomaHerkomst: 'digitaal', uren: 5000 },
    intakeDigitaal,
    'ok',
  ],
  [
    'herregistratie has no scholing question',
    'herregistratie',
    { uren: 10, documents: werk, scholingPunten: 7 },
    herregistratie,
    'ok',
  ],
];

describe('evaluateSubmit (ADR 0005 rules in order)', () => {
  it.each(cases)('when %s, then the outcome is as the rules say', async (_name, type, req, categories, expected) => {
    const outcome = await judge(type, req, categories);
    if (expected === 'ok') {
      expect(outcome).toMatchObject({ ok: true });
    } else {
      const [rule, ...errors] = expected;
      const [slug, detail] = REFUSED_BY[rule];
      expect(outcome).toEqual({
        ok: false,
        slug,
        detail,
        errors: errors.map(([field, code]) => ({ field, code, detail: expect.stringMatching(/\S/) })),
      });
    }
  });

  it('when the threshold changes, then S1 follows the configured value', async () => {
    const req = { diplomaHerkomst: 'digitaal', uren: 1500 };
    expect((await judge('intake', req, intakeDigitaal, 1000)).ok).toBe(true);
    expect((await judge('intake', req, intakeDigitaal, 2000)).ok).toBe(false);
  });

  it('when digital documents pass, then they are returned for linking', async () => {
    const outcome = await judge(
      'herregistratie',
      { uren: 10, documents: [...werk, { categoryId: 'overig', channel: 'digitaal', documentId: 'doc-overig' }] },
      herregistratie,
    );
    expect(outcome).toEqual({
      ok: true,
      uren: 10,
      digitaal: [
        { documentId: 'doc-werk', categoryId: 'werkervaring' },
        { documentId: 'doc-overig', categoryId: 'overig' },
      ],
    });
  });

  it('when rule 1 fails, then nothing is asked of the documents service', async () => {
    const documents = documentsService(intakeHandmatig);
    const outcome = await evaluateSubmit(
      'intake',
      SubmitApplicationRequest.parse({ diplomaHerkomst: 'handmatig', uren: 0 }),
      2080,
      documents.facts,
    );
    expect(outcome).toMatchObject({ ok: false, slug: 'validation' });
    expect(documents.asked).toEqual([]);
  });

  it(
    "when rule 1 holds, then the documents service is asked once: the answers' categories " +
      'and the digital entries in body order (a post entry never, even with a documentId)',
    async () => {
      const documents = documentsService(intakeHandmatig);
      const documentsOfBody = [
        { categoryId: 'diploma', channel: 'post', documentId: 'doc-diploma' },
        { categoryId: 'overig', channel: 'digitaal', documentId: 'doc-overig' },
        { categoryId: 'diploma', channel: 'digitaal', documentId: 'doc-diploma' },
      ];
      await evaluateSubmit(
        'intake',
        SubmitApplicationRequest.parse({ diplomaHerkomst: 'handmatig', uren: 3000, documents: documentsOfBody }),
        2080,
        documents.facts,
      );
      expect(documents.asked).toEqual([
        {
          wizardId: 'intake',
          diplomaHerkomst: 'handmatig',
          candidates: [
            { documentId: 'doc-overig', categoryId: 'overig' },
            { documentId: 'doc-diploma', categoryId: 'diploma' },
          ],
        },
      ]);
    },
  );

  it(
    'when the documents service refuses a digital entry, ' + 'then the error names that entry by its place in the body',
    async () => {
      const documentsOfBody = [
        { categoryId: 'werkervaring', channel: 'post' },
        { categoryId: 'werkervaring', channel: 'digitaal', documentId: 'doc-werk' },
        { categoryId: 'werkervaring', channel: 'digitaal', documentId: 'doc-foreign' },
      ];
      const outcome = await judge('herregistratie', { uren: 100, documents: documentsOfBody }, herregistratie);
      expect(outcome).toMatchObject({
        ok: false,
        slug: 'validation',
        errors: [{ field: 'documents[2].documentId', code: 'invalid-document' }],
      });
    },
  );

  it('when a herregistratie carries a diplomaHerkomst, then the documents service is asked without one', async () => {
    const documents = documentsService(herregistratie);
    await evaluateSubmit(
      'herregistratie',
      SubmitApplicationRequest.parse({ diplomaHerkomst: 'handmatig', uren: 100, documents: werk }),
      2080,
      documents.facts,
    );
    expect(documents.asked.map((q) => q.diplomaHerkomst)).toEqual([null]);
  });

  describe('a refusal the documents service names by its place among the candidates', () => {
    const eleven = Array.from({ length: 11 }, () => ({
      categoryId: 'werkervaring',
      channel: 'digitaal',
      documentId: 'doc-werk',
    }));
    const refusal = (field: string, code = 'invalid-document') => ({ field, code, detail: 'Refused.' });
    const withRefusals =
      (...rejected: ReturnType<typeof refusal>[]) =>
      async () => ({
        categories: herregistratie,
        rejected,
      });
    const submit = (documents: object[], ...rejected: ReturnType<typeof refusal>[]) =>
      evaluateSubmit(
        'herregistratie',
        SubmitApplicationRequest.parse({ uren: 100, documents }),
        2080,
        withRefusals(...rejected),
      );

    it.each<[string, ReturnType<typeof refusal>, string]>([
      ['the eleventh candidate', refusal('documents[10].documentId'), 'documents[10].documentId'],
      ['no candidate (no index)', refusal('documents'), 'documents'],
      ['a candidate that does not exist', refusal('documents[11].documentId'), 'documents'],
      ['a field that only ends like a candidate', refusal('other.documents[0].documentId'), 'documents'],
      ['a field over two lines', refusal('documents[0].documentId\nx'), 'documents'],
    ])('when it names %s, then the error is placed on %s', async (_name, rejected, field) => {
      const outcome = await submit(eleven, rejected);
      expect(outcome).toMatchObject({ ok: false, errors: [{ field, code: 'invalid-document', detail: 'Refused.' }] });
    });

    it('when it names one candidate twice, then its first refusal is the one answered', async () => {
      const outcome = await submit(
        [...werk, ...werk],
        refusal('documents[0].documentId', 'first'),
        refusal('documents[0].documentId', 'second'),
      );
      expect(outcome).toMatchObject({ ok: false, errors: [{ field: 'documents[0].documentId', code: 'first' }] });
    });
  });
});
