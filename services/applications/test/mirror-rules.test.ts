import {
  besluitOf,
  besluitToelichting,
  betrokkeneIdentificatie,
  documentIdentificatie,
  diverged,
  isDuplicateRefusal,
  ok,
  passesElevenTest,
  plannedSteps,
  remainingSteps,
  retryDelayMs,
} from '../src/case-mirror/mirror-rules';
import { auditResourceOf, notificationKey, secretMatches } from '../src/notifications/notification-rules';

describe('the mirror plan (ADR 0011)', () => {
  it.each([
    [
      'a submit without documents',
      { documentIds: [], decided: false, deleteRequested: false },
      ['zaak', 'status:ingediend', 'rol:initiator'],
    ],
    [
      'a submit with two documents',
      { documentIds: ['d1', 'd2'], decided: false, deleteRequested: false },
      ['zaak', 'status:ingediend', 'rol:initiator', 'eio:d1', 'zio:d1', 'eio:d2', 'zio:d2'],
    ],
    [
      'a decided case',
      { documentIds: ['d1'], decided: true, deleteRequested: false },
      ['zaak', 'status:ingediend', 'rol:initiator', 'eio:d1', 'zio:d1', 'status:besluit'],
    ],
    [
      'an admin delete, whatever else was owed',
      { documentIds: ['d1'], decided: true, deleteRequested: true },
      ['delete'],
    ],
  ])('when %s, then the steps are %j', (_name, input, keys) => {
    expect(plannedSteps(input).map((s) => s.key)).toEqual(keys);
  });

  it('when a decided case has two documents, then each step names its kind, and a document its id and place', () => {
    expect(plannedSteps({ documentIds: ['d1', 'd2'], decided: true, deleteRequested: false })).toEqual([
      { kind: 'zaak', key: 'zaak' },
      { kind: 'ingediend', key: 'status:ingediend' },
      { kind: 'initiator', key: 'rol:initiator' },
      { kind: 'document', key: 'eio:d1', documentId: 'd1', index: 0 },
      { kind: 'relation', key: 'zio:d1', documentId: 'd1' },
      { kind: 'document', key: 'eio:d2', documentId: 'd2', index: 1 },
      { kind: 'relation', key: 'zio:d2', documentId: 'd2' },
      { kind: 'besluit', key: 'status:besluit' },
    ]);
    expect(plannedSteps({ documentIds: [], decided: false, deleteRequested: true })).toEqual([
      { kind: 'delete', key: 'delete' },
    ]);
  });

  it('when a step is retried, then it waits 500 ms, then 1 s, and never more than 5 s', () => {
    expect([1, 2, 3, 10].map(retryDelayMs)).toEqual([500, 1000, 2000, 5000]);
  });

  it(
    'when a step gives a value or diverges, ' + 'then its result says which, with a detail of at most 500 characters',
    () => {
      expect(ok(7)).toEqual({ kind: 'ok', value: 7 });
      expect(diverged('x'.repeat(600))).toEqual({ kind: 'diverged', detail: 'x'.repeat(500) });
    },
  );

  it.each([
    ['nothing recorded', [], ['zaak', 'status:ingediend', 'rol:initiator', 'eio:d1', 'zio:d1']],
    ['the zaak and its status recorded', ['zaak', 'status:ingediend'], ['rol:initiator', 'eio:d1', 'zio:d1']],
    ['everything but the relation', ['zaak', 'status:ingediend', 'rol:initiator', 'eio:d1'], ['zio:d1']],
    ['everything', ['zaak', 'status:ingediend', 'rol:initiator', 'eio:d1', 'zio:d1'], []],
  ])('when %s, then the mirror continues with %j', (_name, recorded, keys) => {
    const planned = plannedSteps({ documentIds: ['d1'], decided: false, deleteRequested: false });
    expect(remainingSteps(planned, new Set(recorded)).map((s) => s.key)).toEqual(keys);
  });
});

describe('what the mirror writes', () => {
  it.each([
    ['toekennen', null, 'toekennen'],
    ['toekennen', '   ', 'toekennen'],
    ['afwijzen', 'Onvoldoende werkervaring', 'afwijzen: Onvoldoende werkervaring'],
    ['buiten-behandeling', ` ${'x'.repeat(2000)}`, `buiten-behandeling: ${'x'.repeat(980)}`],
  ])('when the besluit is %s with toelichting %j, then statustoelichting is %j', (besluit, toelichting, text) => {
    expect(besluitToelichting(besluit, toelichting)).toBe(text);
  });

  it.each([
    ['toekennen', 'toekennen'],
    ['afwijzen: Onvoldoende: bewijs', 'afwijzen'],
    ['buiten-behandeling: x', 'buiten-behandeling'],
    [' afwijzen : met spaties', 'afwijzen'],
    ['Ingediend via het portaal', null],
    ['', null],
    [null, null],
  ])('when a status toelichting reads %j, then its besluit is %j', (text, besluit) => {
    expect(besluitOf(text)).toBe(besluit);
  });

  it.each([
    ['111222333', true],
    ['999990019', true],
    ['501234561', true],
    ['900000001', false],
    ['12345678', false],
    ['1234567890', false],
    ['1112223330', false],
    ['0111222333', false],
    ['abcdefghi', false],
  ])('when the number is %s, then the eleven-test says %s', (value, passes) => {
    expect(passesElevenTest(value)).toBe(passes);
  });

  it.each([
    ['999990019', { inpBsn: '999990019' }],
    ['900000001', { anpIdentificatie: '900000001' }],
    ['a-subject-longer-than-seventeen', { anpIdentificatie: 'a-subject-longer-' }],
  ])('when the owner is %s, then the initiator is identified as %j', (owner, identificatie) => {
    expect(betrokkeneIdentificatie(owner)).toEqual(identificatie);
  });

  it('when documents are numbered, then each gets an identificatie of the referentie within 40 characters', () => {
    expect(documentIdentificatie('AV-2026-000042', 0)).toBe('AV-2026-000042-D1');
    expect(documentIdentificatie('AV-2026-000042', 11)).toBe('AV-2026-000042-D12');
    expect(documentIdentificatie(`AV-2026-${'9'.repeat(40)}`, 0)).toHaveLength(40);
  });

  it.each([
    [400, { invalidParams: [{ name: 'identificatie', code: 'identificatie-niet-uniek' }] }, true],
    [400, { invalidParams: [{ name: 'nonFieldErrors', code: 'unique' }] }, true],
    [400, { invalidParams: [{ name: 'roltype', code: 'max-occurences' }] }, true],
    [400, { invalidParams: [{ name: 'zaaktype', code: 'bad-url' }] }, false],
    [500, { invalidParams: [{ code: 'unique' }] }, false],
    [400, { invalidParams: [{ code: 'bad-url' }, { code: 'unique' }] }, true],
    [400, { invalidParams: [null, 'unique', { code: 'unique' }] }, true],
    [400, { invalidParams: [null, 'unique'] }, false],
    [400, { invalidParams: { code: 'unique' } }, false],
    [400, 'not json', false],
    [400, undefined, false],
    [400, null, false],
  ])('when Open Zaak answers %s with %j, then it is a duplicate refusal: %s', (status, body, duplicate) => {
    expect(isDuplicateRefusal(status, body)).toBe(duplicate);
  });
});

describe('the notification webhook rules', () => {
  it.each([
    ['the configured value', 'Token s3cret', 'Token s3cret', true],
    ['another value', 'Token s3cret', 'Token s3cre7', false],
    ['a prefix of it', 'Token s3cret', 'Token s3c', false],
    ['no header', 'Token s3cret', undefined, false],
    ['a repeated header', 'Token s3cret', ['Token s3cret', 'Token s3cret'], false],
    ['nothing configured and nothing sent', undefined, undefined, false],
    ['nothing configured and an empty header', undefined, '', false],
  ])('when Authorization is %s (configured %j, sent %j), then it matches: %s', (_name, configured, given, matches) => {
    expect(secretMatches(configured, given)).toBe(matches);
  });

  const base = {
    kanaal: 'zaken',
    hoofdObject: 'http://zrc/zaken/1',
    resource: 'status',
    resourceUrl: 'http://zrc/statussen/1',
    actie: 'create',
    aanmaakdatum: '2026-03-01T10:00:00Z',
    kenmerken: { a: '1', b: '2' },
  };

  it(
    'when the same notification comes again, also with its kenmerken reordered, ' +
      'then its key is the same; another notification has another key',
    () => {
      expect(notificationKey({ ...base })).toBe(notificationKey({ ...base, kenmerken: { b: '2', a: '1' } }));
      expect(notificationKey(base)).not.toBe(notificationKey({ ...base, aanmaakdatum: '2026-03-01T10:00:01Z' }));
      expect(notificationKey(base)).not.toBe(notificationKey({ ...base, kenmerken: { a: '1', b: '3' } }));
      expect(notificationKey({ ...base, kenmerken: null })).toBe(notificationKey({ ...base, kenmerken: {} }));
    },
  );

  it('when a notification is audited, then the row names its kind, never its URLs', () => {
    expect(auditResourceOf(base)).toBe('notificatie/zaken/status/create');
  });
});
