import { readFileSync } from 'node:fs';
import {
  FROZEN_DESCRIPTION,
  addedValues,
  checkSchemas,
  frozenNames,
  frozenSchema,
  opticDiff,
  type NamedSchema,
} from '../src';

// Issue 23, items 2 and 3: the gate fails on each breaking change the issue lists and passes an addition. Each
// case changes a copy of the frozen v1.0.0 and runs the same check `npm run check:compat` runs.
type Doc = Record<string, any>;
const frozen = readFileSync(FROZEN_DESCRIPTION, 'utf8');
const changed = (change: (doc: Doc) => void) => {
  const doc = JSON.parse(frozen) as Doc;
  change(doc);
  return JSON.stringify(doc);
};
const schemas = () => frozenNames().map((name) => ({ name, schema: frozenSchema(name)! }));
const schemasWith = (name: string, change: (schema: Doc) => void): NamedSchema[] =>
  schemas().map((s) => {
    if (s.name !== name) return s;
    const copy = structuredClone(s.schema) as Doc;
    change(copy);
    return { name, schema: copy };
  });
const props = (doc: Doc, schema: string) => doc['components'].schemas[schema].properties;

const BREAKING: Array<[string, (doc: Doc) => void]> = [
  ['a path removed', (d) => delete d['paths']['/brief/reset']],
  ['an operation removed', (d) => delete d['paths']['/brief'].put],
  [
    'a parameter renamed',
    (d) => (d['paths']['/brief'].get.parameters.find((p: Doc) => p['name'] === 'referentie').name = 'reference'),
  ],
  ['a response field removed', (d) => delete props(d, 'UploadedDocument').fileName],
  [
    'a response field renamed',
    (d) => {
      props(d, 'UploadedDocument').naam = props(d, 'UploadedDocument').fileName;
      delete props(d, 'UploadedDocument').fileName;
    },
  ],
  ['a type changed', (d) => (props(d, 'UploadedDocument').sizeBytes = { type: 'string' })],
  [
    'an optional request field made required',
    (d) => (d['components'].schemas.ChangeRequestRequest.required = ['telefoon']),
  ],
  [
    'a new required request field',
    (d) => {
      props(d, 'CreateApplicationRequest').kanaal = { type: 'string' };
      d['components'].schemas.CreateApplicationRequest.required.push('kanaal');
    },
  ],
  ['a request enum value removed', (d) => (props(d, 'CreateApplicationRequest').type.enum = ['intake'])],
  ['a documented status removed', (d) => delete d['paths']['/brief'].get.responses['404']],
  ['a response field made nullable', (d) => (props(d, 'UploadedDocument').fileName.type = ['string', 'null'])],
];

describe('the API gate against v1.0.0', () => {
  it('when nothing changed, then it passes', () => {
    expect(opticDiff('api', frozen, frozen)).toBeNull();
  });

  it.each(BREAKING)('when %s, then it fails', (_what, change) => {
    expect(opticDiff('api', frozen, changed(change))).toEqual(expect.stringContaining('breaking'));
  });

  it('when an operation and an optional response field are added, then it passes', () => {
    const added = changed((d) => {
      d['paths']['/brief/preview'] = { get: { ...d['paths']['/brief'].get, operationId: 'previewBrief' } };
      props(d, 'UploadedDocument').label = { type: 'string' };
    });
    expect(opticDiff('api', frozen, added)).toBeNull();
  });
});

describe('the event and internal API gate against v1.0.0', () => {
  it('when an event payload loses a field, then it fails', () => {
    const live = schemasWith('events/register.applications.decided', (s) => delete s['properties'].besluit);
    expect(checkSchemas(schemas(), live)).toEqual(expect.stringContaining('breaking'));
  });

  it("when an internal answer's field becomes nullable, then it fails", () => {
    const live = schemasWith(
      'internal/applications.uploadTarget',
      (s) => (s['properties'].uploadable.type = ['boolean', 'null']),
    );
    expect(checkSchemas(schemas(), live)).toEqual(expect.stringContaining('breaking'));
  });

  it('when an internal request gains a required field, then it fails', () => {
    const live = schemasWith('internal/documents.linkRequest', (s) => {
      s['properties'].kanaal = { type: 'string' };
      s['required'].push('kanaal');
    });
    expect(checkSchemas(schemas(), live)).toEqual(expect.stringContaining('breaking'));
  });

  it('when an event subject disappears, then it fails', () => {
    const live = schemas().filter((s) => s.name !== 'events/register.reference.flag-changed');
    expect(checkSchemas(schemas(), live)).toEqual(expect.stringContaining('breaking'));
  });

  it('when an event payload gains an optional field and a new subject appears, then it passes', () => {
    const live = schemasWith(
      'events/register.applications.decided',
      (s) => (s['properties'].kanaal = { type: 'string' }),
    );
    live.push({
      name: 'events/register.letters.sent',
      schema: { type: 'object', properties: { id: { type: 'string' } } },
    });
    expect(checkSchemas(schemas(), live)).toBeNull();
  });
});

// ADR 0227: a consumer has no branch for a value it has never seen, so in an event payload or an internal answer
// a new value where v1.0.0 had a closed set is breaking; a request schema (read by its owner) may accept more.
describe('the gate on values consumers read', () => {
  const decided = 'events/register.applications.decided';
  // The frozen schemas have property enums and consts only; the other shapes a closed set takes are added to
  // both sides of a copy, then grown on the live side.
  const withBoth = (name: string, before: Doc, after: Doc) => {
    const add = (list: NamedSchema[], extra: Doc) =>
      list.map((s) =>
        s.name === name
          ? { name, schema: { ...s.schema, properties: { ...(s.schema['properties'] as Doc), ...extra } } }
          : s,
      );
    return [add(schemas(), before), add(schemas(), after)] as const;
  };

  it("when an event payload's enum gains a value, then it fails", () => {
    const live = schemasWith(decided, (s) => s['properties'].besluit.enum.push('aanhouden'));
    expect(checkSchemas(schemas(), live)).toEqual(expect.stringContaining('besluit: adds "aanhouden"'));
  });

  it("when an internal answer's nullable enum gains a value, then it fails", () => {
    const live = schemasWith('internal/applications.letterContext', (s) =>
      s['properties'].besluit.anyOf[0].enum.push('aanhouden'),
    );
    expect(checkSchemas(schemas(), live)).toEqual(expect.stringContaining('besluit: adds "aanhouden"'));
  });

  it.each<[string, Doc, Doc]>([
    [
      "an array's enum",
      { labels: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } },
      { labels: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] } } },
    ],
    [
      "a map's enum",
      { perCategorie: { type: 'object', additionalProperties: { type: 'string', enum: ['a', 'b'] } } },
      { perCategorie: { type: 'object', additionalProperties: { type: 'string', enum: ['a', 'b', 'c'] } } },
    ],
    [
      'a union of literals',
      {
        kanaal: {
          anyOf: [
            { type: 'string', const: 'post' },
            { type: 'string', const: 'digitaal' },
          ],
        },
      },
      {
        kanaal: {
          anyOf: [
            { type: 'string', const: 'post' },
            { type: 'string', const: 'digitaal' },
            { type: 'string', const: 'balie' },
          ],
        },
      },
    ],
    [
      'a discriminated union by a variant',
      {
        bijlage: {
          oneOf: [
            { type: 'object', properties: { kind: { type: 'string', const: 'pdf' } } },
            { type: 'object', properties: { kind: { type: 'string', const: 'link' }, url: { type: 'string' } } },
          ],
        },
      },
      {
        bijlage: {
          oneOf: [
            { type: 'object', properties: { kind: { type: 'string', const: 'pdf' } } },
            { type: 'object', properties: { kind: { type: 'string', const: 'link' }, url: { type: 'string' } } },
            { type: 'object', properties: { kind: { type: 'string', const: 'foto' } } },
          ],
        },
      },
    ],
    [
      'an enum into any string',
      { kanaal: { type: 'string', enum: ['post', 'digitaal'] } },
      { kanaal: { type: 'string' } },
    ],
  ])('when an event payload widens %s, then it fails', (_what, before, after) => {
    const [frozenSide, liveSide] = withBoth(decided, before, after);
    expect(checkSchemas(frozenSide, liveSide)).toEqual(expect.stringContaining('ADR 0227'));
  });

  it('when the same shapes keep their values, then it passes', () => {
    const same = {
      labels: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
      kanaal: { anyOf: [{ type: 'string', const: 'post' }, { type: 'null' }] },
    };
    const [frozenSide, liveSide] = withBoth(decided, same, structuredClone(same));
    expect(checkSchemas(frozenSide, liveSide)).toBeNull();
  });

  it("when an internal request's enum gains a value, then it passes: its owner accepts more", () => {
    const live = schemasWith('internal/documents.categoriesQuery', (s) =>
      s['properties'].diplomaHerkomst.enum.push('buitenland'),
    );
    expect(checkSchemas(schemas(), live)).toBeNull();
  });

  it('when a value set is reached through a $ref, then a new value there is found too', () => {
    const before = {
      $defs: { Besluit: { type: 'string', enum: ['toekennen', 'afwijzen'] } },
      type: 'object',
      properties: { besluit: { $ref: '#/$defs/Besluit' }, vorig: { $ref: '#/$defs/Besluit' } },
    };
    const after = structuredClone(before);
    after.$defs.Besluit.enum.push('aanhouden');
    expect(addedValues(before, after)).toEqual([
      '/properties/besluit: adds "aanhouden" to "toekennen", "afwijzen"',
      '/properties/vorig: adds "aanhouden" to "toekennen", "afwijzen"',
    ]);
  });
});
