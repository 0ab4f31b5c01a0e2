import { evaluateSubmit, type CategoryRule, type OwnedDocument, type SubmitRequest } from '../src/domain/submit-rules';

const APP = 'a0000000-0000-4000-8000-000000000001';
const OTHER_APP = 'a0000000-0000-4000-8000-000000000002';
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
const owned: OwnedDocument[] = [
  { documentId: 'doc-diploma', categoryId: 'diploma', linkedApplicationId: null },
  { documentId: 'doc-werk', categoryId: 'werkervaring', linkedApplicationId: null },
  { documentId: 'doc-overig', categoryId: 'overig', linkedApplicationId: null },
  { documentId: 'doc-mine-linked', categoryId: 'werkervaring', linkedApplicationId: APP },
  { documentId: 'doc-elsewhere', categoryId: 'werkervaring', linkedApplicationId: OTHER_APP },
];
const werk = [{ categoryId: 'werkervaring', channel: 'digitaal', documentId: 'doc-werk' }];
const ctx = (categories: CategoryRule[]) => ({ applicationId: APP, scholingThreshold: 2080, categories, ownedDocuments: owned });

type Expect = 'ok' | ['validation' | 'scholing-incompleet', string];
const cases: Array<[string, 'intake' | 'herregistratie', SubmitRequest, CategoryRule[], Expect]> = [
  // Rule 1
  ['intake without diplomaHerkomst', 'intake', { uren: 3000 }, intakeDigitaal, ['validation', 'diplomaHerkomst']],
  ['intake with an unknown diplomaHerkomst', 'intake', { diplomaHerkomst: 'buitenland', uren: 3000 }, intakeDigitaal, ['validation', 'diplomaHerkomst']],
  ['intake without uren', 'intake', { diplomaHerkomst: 'digitaal' }, intakeDigitaal, ['validation', 'uren']],
  ['intake with uren 0', 'intake', { diplomaHerkomst: 'digitaal', uren: 0 }, intakeDigitaal, ['validation', 'uren']],
  ['intake with fractional uren', 'intake', { diplomaHerkomst: 'digitaal', uren: 10.5 }, intakeDigitaal, ['validation', 'uren']],
  ['intake with uren as a string', 'intake', { diplomaHerkomst: 'digitaal', uren: '3000' }, intakeDigitaal, ['validation', 'uren']],
  ['herregistratie without uren', 'herregistratie', { documents: werk }, herregistratie, ['validation', 'uren']],
  ['uren 0 is decided by rule 1, not S1', 'intake', { diplomaHerkomst: 'digitaal', uren: 0, scholingPunten: 3 }, intakeDigitaal, ['validation', 'uren']],
  // Rule 2
  ['handmatig without a diploma document', 'intake', { diplomaHerkomst: 'handmatig', uren: 3000 }, intakeHandmatig, ['validation', 'documents']],
  ['handmatig with the diploma digitaal', 'intake', { diplomaHerkomst: 'handmatig', uren: 3000, documents: [{ categoryId: 'diploma', channel: 'digitaal', documentId: 'doc-diploma' }] }, intakeHandmatig, 'ok'],
  ['handmatig with the diploma by post', 'intake', { diplomaHerkomst: 'handmatig', uren: 3000, documents: [{ categoryId: 'diploma', channel: 'post' }] }, intakeHandmatig, 'ok'],
  ['digitaal needs no documents', 'intake', { diplomaHerkomst: 'digitaal', uren: 3000 }, intakeDigitaal, 'ok'],
  ['herregistratie without werkervaring', 'herregistratie', { uren: 100 }, herregistratie, ['validation', 'documents']],
  ['herregistratie with werkervaring digitaal', 'herregistratie', { uren: 100, documents: werk }, herregistratie, 'ok'],
  ['herregistratie with werkervaring by post', 'herregistratie', { uren: 100, documents: [{ categoryId: 'werkervaring', channel: 'post' }] }, herregistratie, 'ok'],
  ['post where the category does not allow it', 'herregistratie', { uren: 100, documents: [...werk, { categoryId: 'overig', channel: 'post' }] }, herregistratie, ['validation', 'documents[1].channel']],
  ['unknown channel', 'herregistratie', { uren: 100, documents: [{ categoryId: 'werkervaring', channel: 'fax' }] }, herregistratie, ['validation', 'documents[0].channel']],
  ['unknown category', 'herregistratie', { uren: 100, documents: [...werk, { categoryId: 'diploma', channel: 'post' }] }, herregistratie, ['validation', 'documents[1].categoryId']],
  ['a document of another owner (not in the lookup)', 'herregistratie', { uren: 100, documents: [{ categoryId: 'werkervaring', channel: 'digitaal', documentId: 'doc-foreign' }] }, herregistratie, ['validation', 'documents[0].documentId']],
  ['a document in another category', 'herregistratie', { uren: 100, documents: [{ categoryId: 'werkervaring', channel: 'digitaal', documentId: 'doc-overig' }] }, herregistratie, ['validation', 'documents[0].documentId']],
  ['a document linked to another application', 'herregistratie', { uren: 100, documents: [{ categoryId: 'werkervaring', channel: 'digitaal', documentId: 'doc-elsewhere' }] }, herregistratie, ['validation', 'documents[0].documentId']],
  ['a document already linked to this application (a retried submit)', 'herregistratie', { uren: 100, documents: [{ categoryId: 'werkervaring', channel: 'digitaal', documentId: 'doc-mine-linked' }] }, herregistratie, 'ok'],
  ['digitaal without documentId', 'herregistratie', { uren: 100, documents: [{ categoryId: 'werkervaring', channel: 'digitaal' }] }, herregistratie, ['validation', 'documents[0].documentId']],
  ['documents not an array', 'herregistratie', { uren: 100, documents: 'x' }, herregistratie, ['validation', 'documents']],
  ['rule 2 is checked before S1', 'intake', { diplomaHerkomst: 'handmatig', uren: 10 }, intakeHandmatig, ['validation', 'documents']],
  // Rule S1
  ['below the threshold without aanvullendeScholing', 'intake', { diplomaHerkomst: 'digitaal', uren: 2079 }, intakeDigitaal, ['scholing-incompleet', 'aanvullendeScholing']],
  ['below the threshold with aanvullendeScholing null', 'intake', { diplomaHerkomst: 'digitaal', uren: 100, aanvullendeScholing: null }, intakeDigitaal, ['scholing-incompleet', 'aanvullendeScholing']],
  ['below the threshold, scholing declined', 'intake', { diplomaHerkomst: 'digitaal', uren: 100, aanvullendeScholing: false }, intakeDigitaal, 'ok'],
  ['below the threshold, declined with punten null', 'intake', { diplomaHerkomst: 'digitaal', uren: 100, aanvullendeScholing: false, scholingPunten: null }, intakeDigitaal, 'ok'],
  ['below the threshold, declined but punten given', 'intake', { diplomaHerkomst: 'digitaal', uren: 100, aanvullendeScholing: false, scholingPunten: 5 }, intakeDigitaal, ['scholing-incompleet', 'scholingPunten']],
  ['below the threshold, followed without punten', 'intake', { diplomaHerkomst: 'digitaal', uren: 100, aanvullendeScholing: true }, intakeDigitaal, ['scholing-incompleet', 'scholingPunten']],
  ['below the threshold, followed with 0 punten', 'intake', { diplomaHerkomst: 'digitaal', uren: 100, aanvullendeScholing: true, scholingPunten: 0 }, intakeDigitaal, ['scholing-incompleet', 'scholingPunten']],
  ['below the threshold, followed with 1.5 punten', 'intake', { diplomaHerkomst: 'digitaal', uren: 100, aanvullendeScholing: true, scholingPunten: 1.5 }, intakeDigitaal, ['scholing-incompleet', 'scholingPunten']],
  ['below the threshold, followed with 1 punt', 'intake', { diplomaHerkomst: 'digitaal', uren: 100, aanvullendeScholing: true, scholingPunten: 1 }, intakeDigitaal, 'ok'],
  ['aanvullendeScholing as a string', 'intake', { diplomaHerkomst: 'digitaal', uren: 100, aanvullendeScholing: 'true', scholingPunten: 3 }, intakeDigitaal, ['scholing-incompleet', 'aanvullendeScholing']],
  ['at the threshold the scholing answers are ignored', 'intake', { diplomaHerkomst: 'digitaal', uren: 2080, aanvullendeScholing: false, scholingPunten: 5 }, intakeDigitaal, 'ok'],
  ['above the threshold nothing about scholing is needed', 'intake', { diplomaHerkomst: 'digitaal', uren: 5000 }, intakeDigitaal, 'ok'],
  ['herregistratie has no scholing question', 'herregistratie', { uren: 10, documents: werk, scholingPunten: 7 }, herregistratie, 'ok'],
];

describe('evaluateSubmit (decisions §5 rules in order)', () => {
  it.each(cases)('when %s, then the outcome is as the rules say', (_name, type, req, categories, expected) => {
    const outcome = evaluateSubmit(type, req, ctx(categories));
    if (expected === 'ok') {
      expect(outcome).toMatchObject({ ok: true });
    } else {
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.slug).toBe(expected[0]);
      expect(outcome.errors.map((e) => e.field)).toContain(expected[1]);
    }
  });

  it('when the threshold changes, then S1 follows the configured value', () => {
    const req = { diplomaHerkomst: 'digitaal', uren: 1500 };
    expect(evaluateSubmit('intake', req, { ...ctx(intakeDigitaal), scholingThreshold: 1000 }).ok).toBe(true);
    expect(evaluateSubmit('intake', req, { ...ctx(intakeDigitaal), scholingThreshold: 2000 }).ok).toBe(false);
  });

  it('when digital documents pass, then they are returned for linking', () => {
    const outcome = evaluateSubmit('herregistratie', { uren: 10, documents: [...werk, { categoryId: 'overig', channel: 'digitaal', documentId: 'doc-overig' }] }, ctx(herregistratie));
    expect(outcome).toEqual({ ok: true, uren: 10, digitaal: [{ documentId: 'doc-werk', categoryId: 'werkervaring' }, { documentId: 'doc-overig', categoryId: 'overig' }] });
  });
});
