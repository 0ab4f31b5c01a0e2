import { checkSections, type ContentRulesInput } from '../src/content/content-rules';
import type { LetterSection } from '../src/content/content.schemas';
import { SaveBriefRequest } from '../src/briefs/briefs.schemas';
import { composeSections } from '../src/passages/compose';
import { PassageLibrary } from '../src/passages/passage-library';
import { PASSAGES_SEED } from '../src/passages/passages.seed';

const library = new PassageLibrary(PASSAGES_SEED.map((p) => ({ ...p, version: 1 })));
let n = 0;
const newBlockId = () => `nieuw-${++n}`;
const stored: LetterSection[] = composeSections(library, 'arts', 'afwijzen', () => `b-${++n}`);
/** What a portal sends back: the stored sections, as JSON. */
const copy = (): any[] => JSON.parse(JSON.stringify(stored));
const check = (sections: unknown) =>
  checkSections({
    sections: sections as ContentRulesInput['sections'],
    stored,
    passageContent: (id, v) => library.content(id, v),
    newBlockId,
  });
const fieldsOf = (outcome: ReturnType<typeof check>) =>
  outcome.ok ? [] : outcome.errors.map((e) => [e.field, e.code]);

const text = (t: string) => ({ type: 'text', text: t, marks: [], key: null });

describe('checkSections (ADR 0010)', () => {
  it('when the stored letter comes back unchanged, then it is accepted and every passage block is unedited', () => {
    const outcome = check(copy());
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.sections.map((s) => s.sectionKey)).toEqual([
      'kenmerk',
      'aanhef',
      'kern',
      'besluit',
      'bezwaar',
      'afsluiting',
    ]);
    expect(outcome.sections.flatMap((s) => s.blocks ?? []).every((b) => b.edited === false)).toBe(true);
  });

  it(
    'when a passage block is changed, then it keeps its source ' +
      'and turns edited; a changed-back one is unedited again',
    () => {
      const sections = copy();
      sections[1].blocks[0].content.paragraphs[0].nodes.push(text(' Hoogachtend.'));
      const outcome = check(sections);
      expect(outcome.ok && outcome.sections[1]!.blocks![0]).toMatchObject({
        sourcePassageId: 'aanhef-formeel',
        sourceVersion: 1,
        edited: true,
      });
      expect(check(copy()).ok && (check(copy()) as any).sections[1].blocks[0].edited).toBe(false);
    },
  );

  it('when a new tekst block has no id, then the server gives it one', () => {
    const sections = copy();
    sections[2].blocks.push({ type: 'tekst', content: { paragraphs: [{ nodes: [text('Extra uitleg.')] }] } });
    const outcome = check(sections);
    expect(outcome.ok && outcome.sections[2]!.blocks![1]).toMatchObject({
      type: 'tekst',
      blockId: expect.stringMatching(/^nieuw-/),
      sourcePassageId: null,
      sourceVersion: null,
      edited: null,
    });
  });

  const cases: Array<[string, (s: any[]) => unknown, Array<[string, string]>]> = [
    [
      'no sections at all',
      () => null,
      ['kenmerk', 'aanhef', 'kern', 'besluit', 'bezwaar', 'afsluiting'].map(
        () => ['sections', 'required-section-missing'] as [string, string],
      ),
    ],
    [
      'a required section dropped',
      (s) => s.filter((x) => x.sectionKey !== 'kern'),
      [['sections', 'required-section-missing']],
    ],
    ['a section twice', (s) => [...s, s[1]], [['sections[6].sectionKey', 'duplicate-section']]],
    [
      'sections out of order',
      (s) => [s[0], s[2], s[1], s[3], s[4], s[5]],
      [
        ['sections[1].sectionKey', 'section-order'],
        ['sections[2].sectionKey', 'section-order'],
      ],
    ],
    [
      'a locked section changed',
      (s) => {
        s[4].blocks[0].content.paragraphs[0].nodes[0].text = 'Bezwaar is niet mogelijk.';
        return s;
      },
      [['sections[4].blocks[0].content.paragraphs[0].nodes[0].text', 'locked-section']],
    ],
    [
      'a locked section emptied',
      (s) => {
        s[0].blocks = [];
        return s;
      },
      [['sections[0].blocks[0]', 'locked-section']],
    ],
    [
      'a section made unlocked',
      (s) => {
        s[4].locked = false;
        return s;
      },
      [['sections[4].locked', 'section-definition']],
    ],
    [
      'a section renamed',
      (s) => {
        s[2].title = 'Iets anders';
        return s;
      },
      [['sections[2].title', 'section-definition']],
    ],
    [
      'a placeholder the letter does not have',
      (s) => {
        s[2].blocks[0].content.paragraphs[1] = {
          nodes: [text('a'), text('b'), text('c'), { type: 'placeholder', key: 'zorgverlener.bsn' }],
          list: null,
        };
        return s;
      },
      [['sections[2].blocks[0].content.paragraphs[1].nodes[3].key', 'unknown-placeholder']],
    ],
    [
      'a passage the library does not have',
      (s) => {
        s[3].blocks[0].sourcePassageId = 'bestaat-niet';
        return s;
      },
      [['sections[3].blocks[0].sourcePassageId', 'unknown-passage']],
    ],
    [
      'a passage version the library does not have',
      (s) => {
        s[3].blocks[0].sourceVersion = 7;
        return s;
      },
      [['sections[3].blocks[0].sourcePassageId', 'unknown-passage']],
    ],
    [
      'a passage block without its source',
      (s) => {
        s[3].blocks[0].sourcePassageId = null;
        return s;
      },
      [['sections[3].blocks[0].sourcePassageId', 'passage-source-required']],
    ],
    [
      'a tekst block claiming a source',
      (s) => {
        s[3].blocks[0].type = 'tekst';
        return s;
      },
      [['sections[3].blocks[0].sourcePassageId', 'not-a-passage']],
    ],
    [
      'a section sent with its title, required and locked left out or null',
      (s) => {
        s[2].title = null;
        s[2].locked = null;
        delete s[2].required;
        delete s[3].title;
        s[3].required = null;
        return s;
      },
      [],
    ],
    [
      'a locked section whose passage version changed',
      (s) => {
        s[4].blocks[0].sourceVersion = 2;
        return s;
      },
      [['sections[4].blocks[0].sourceVersion', 'locked-section']],
    ],
    [
      'a locked section whose passage changed',
      (s) => {
        s[4].blocks[0].sourcePassageId = 'kern-afwijzen';
        return s;
      },
      [['sections[4].blocks[0].sourcePassageId', 'locked-section']],
    ],
    [
      'a locked section sent without blocks',
      (s) => {
        delete s[4].blocks;
        return s;
      },
      [['sections[4].blocks[0]', 'locked-section']],
    ],
    [
      'an open section sent without blocks',
      (s) => {
        delete s[2].blocks;
        return s;
      },
      [],
    ],
    [
      'a tekst block claiming only a version',
      (s) => {
        s[3].blocks[0].type = 'tekst';
        s[3].blocks[0].sourcePassageId = null;
        return s;
      },
      [['sections[3].blocks[0].sourcePassageId', 'not-a-passage']],
    ],
    [
      'a tekst block claiming only a passage',
      (s) => {
        s[3].blocks[0].type = 'tekst';
        s[3].blocks[0].sourceVersion = null;
        return s;
      },
      [['sections[3].blocks[0].sourcePassageId', 'not-a-passage']],
    ],
    [
      'a passage block without its version',
      (s) => {
        s[3].blocks[0].sourceVersion = null;
        return s;
      },
      [['sections[3].blocks[0].sourceVersion', 'passage-source-required']],
    ],
    [
      "a new block with a locked section's block id",
      (s) => {
        s[5].blocks[0].blockId = s[4].blocks[0].blockId;
        return s;
      },
      [['sections[5].blocks[0].blockId', 'duplicate-block']],
    ],
    [
      'one block id twice',
      (s) => {
        s[5].blocks[0].blockId = s[2].blocks[0].blockId;
        return s;
      },
      [['sections[5].blocks[0].blockId', 'duplicate-block']],
    ],
  ];

  it('when a locked section was stored without blocks, then it comes back without blocks unchanged', () => {
    const storedEmpty = stored.map((x) => (x.sectionKey === 'kenmerk' ? { ...x, blocks: null } : x));
    const sections = copy();
    sections[0].blocks = [];
    const outcome = checkSections({
      sections,
      stored: storedEmpty,
      passageContent: (id, v) => library.content(id, v),
      newBlockId,
    });
    expect(outcome.ok && outcome.sections[0]).toEqual(storedEmpty[0]);
  });

  it.each(cases)('when the letter has %s, then 400 naming the node', (_name, mutate, fields) => {
    const outcome = check(mutate(copy()));
    expect(fieldsOf(outcome)).toEqual(fields);
    // Every error also says in words what is wrong with that node.
    if (!outcome.ok) for (const e of outcome.errors) expect(e.detail).toMatch(/\w+ \w+/);
  });

  it.each<[string, RegExp]>([
    ['a section twice', /^Section aanhef is given twice\.$/],
    ['a required section dropped', /^Section kern is required\.$/],
    ['sections out of order', /^Section aanhef belongs at position 1\.$/],
    ['a locked section changed', /^Section bezwaar is locked\.$/],
    ['a section renamed', /^The title of section kern is fixed\.$/],
    ['a placeholder the letter does not have', /^Placeholder zorgverlener\.bsn is not one of/],
    ['a passage the library does not have', /^The library has no passage bestaat-niet version 1\.$/],
    ['one block id twice', /^Block id b-\d+ is used twice\.$/],
  ])('when the letter has %s, then the first error names it: %s', (name, detail) => {
    const mutate = cases.find(([n]) => n === name)![1];
    const outcome = check(mutate(copy()));
    expect(outcome.ok ? null : outcome.errors[0]!.detail).toMatch(detail);
  });
});

describe('SaveBriefRequest (the value sets of ADR 0010)', () => {
  const withNode = (node: unknown) => {
    const s = copy();
    s[2].blocks[0].content.paragraphs[0].nodes[1] = node;
    return { sections: s };
  };
  const withParagraph = (paragraph: unknown) => {
    const s = copy();
    s[2].blocks[0].content.paragraphs[1] = paragraph;
    return { sections: s };
  };
  const fields = (body: unknown) => {
    const result = SaveBriefRequest.safeParse(body);
    return result.success ? [] : result.error.issues.map((i) => [i.path.join('.'), i.code]);
  };
  const node = 'sections[2].blocks[0].content.paragraphs[0].nodes[1]';

  it.each<[string, unknown, Array<[string, string]>]>([
    ['an unknown node type', withNode({ type: 'image', text: 'x' }), [[`${node}.type`, 'invalid_union']]],
    [
      'a mark outside the set',
      withNode({ type: 'text', text: 'x', marks: ['blink'] }),
      [[`${node}.marks[0]`, 'invalid_value']],
    ],
    ['a mark twice', withNode({ type: 'text', text: 'x', marks: ['bold', 'bold'] }), [[`${node}.marks`, 'custom']]],
    [
      'a text node with a key',
      withNode({ type: 'text', text: 'x', key: 'datum.vandaag' }),
      [[`${node}.key`, 'invalid_type']],
    ],
    ['a placeholder without a key', withNode({ type: 'placeholder' }), [[`${node}.key`, 'invalid_type']]],
    ['a NUL character', withNode({ type: 'text', text: 'a\u0000b' }), [[`${node}.text`, 'custom']]],
    ['an unpaired surrogate', withNode({ type: 'text', text: 'a\uD800b' }), [[`${node}.text`, 'custom']]],
    ['an unknown field', withNode({ type: 'hardBreak', html: '<b>' }), [[`${node}.html`, 'unrecognized_key']]],
    [
      'a list kind outside the set',
      withParagraph({ nodes: [], list: 'checklist' }),
      [['sections[2].blocks[0].content.paragraphs[1].list', 'invalid_value']],
    ],
    [
      'a block type outside the set',
      { sections: [{ sectionKey: 'kern', blocks: [{ type: 'html', content: { paragraphs: [] } }] }] },
      [['sections[0].blocks[0].type', 'invalid_value']],
    ],
    ['an unknown section', { sections: [{ sectionKey: 'ps' }] }, [['sections[0].sectionKey', 'invalid_value']]],
    [
      'a version beyond a 32-bit integer',
      {
        sections: [
          {
            sectionKey: 'kern',
            blocks: [
              {
                type: 'passage',
                sourcePassageId: 'kern-afwijzen',
                sourceVersion: 2 ** 31,
                content: { paragraphs: [] },
              },
            ],
          },
        ],
      },
      [['sections[0].blocks[0].sourceVersion', 'too_big']],
    ],
  ])('when a letter carries %s, then it is refused at that path', (_name, body, expectedFields) => {
    expect(fields(body)).toEqual(expectedFields);
  });

  it('when the letter is valid, then it parses', () => {
    expect(SaveBriefRequest.safeParse({ sections: copy() }).success).toBe(true);
  });
});
