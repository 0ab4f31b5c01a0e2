import { practitioner } from '@register/testkit';
import { KeptBriefsInMemory } from '../src/adapters/kept-briefs';
import { ViewBodiesInMemory } from '../src/adapters/view-bodies';
import type { LoadedBrief } from '../src/briefs/brief-ports';
import { briefView, callerOf, visibleSections } from '../src/briefs/brief-view';
import type { StoredBrief } from '../src/briefs/briefs.repository';
import { composeSections } from '../src/passages/compose';
import { PassageLibrary } from '../src/passages/passage-library';
import { PASSAGES_SEED } from '../src/passages/passages.seed';
import { TEMPLATES_SEED } from '../src/templates/templates.seed';

// The view is sent as a body whose large parts (content, passages) were serialised once: it must be the
// very text JSON.stringify makes of the view object, for every status and caller.
const library = new PassageLibrary(PASSAGES_SEED.map((p) => ({ ...p, version: 1 })));
let n = 0;
const sections = composeSections(library, 'arts', 'afwijzen', () => `b${++n}`);
const frozen = composeSections(library, 'arts', 'toekennen', () => `f${++n}`);

function brief(overrides: Partial<StoredBrief>): StoredBrief {
  return {
    briefId: '7f1f0a52-6d1c-4d0e-9a55-3f1d7b2b9c01',
    revision: '3',
    isShared: false,
    applicationId: null,
    referentie: 'AV-2026-000042',
    beroep: 'arts',
    besluit: 'afwijzen',
    templateId: 'register',
    sections,
    frozenSections: null,
    status: 'concept',
    submittedBy: null,
    submittedAt: null,
    approvedBy: null,
    approvedAt: null,
    rejectedBy: null,
    rejectedAt: null,
    comments: 'Zie "bijlage" \u2028 <b>',
    sentAt: null,
    drafterId: null,
    templateVersion: null,
    template: { version: 2, template: TEMPLATES_SEED[0]!.content },
    context: {
      applicationId: null,
      referentie: 'AV-2026-000042',
      type: 'intake',
      besluit: 'afwijzen',
      toelichting: null,
      decidedAt: null,
      beroep: 'arts',
      zorgverlenerNaam: 'A. de Vries',
      registerNummer: '10000000101',
      subject: '900000001',
    },
    ...overrides,
  };
}

describe('the view body of a BriefView', () => {
  it.each([
    ['a concept read by its drafter', brief({}), practitioner('900000001', 'drafter')],
    [
      'a letter under review (the frozen copy shows) read by an approver',
      brief({
        status: 'ter-goedkeuring',
        frozenSections: frozen,
        drafterId: '900000001',
        submittedBy: '900000001',
        submittedAt: new Date('2026-11-20T10:00:00Z'),
      }),
      practitioner('900000002', 'approver'),
    ],
    [
      'a sent letter without a case context, read by no one in particular',
      brief({
        status: 'verzonden',
        frozenSections: frozen,
        context: null,
        beroep: null,
        sentAt: new Date('2026-11-21T10:00:00Z'),
      }),
      null,
    ],
  ])('when it is %s, then the body is JSON.stringify of the view object', (_title, stored, identity) => {
    const view = briefView(stored, library.availableFor(stored.beroep), callerOf(identity));
    const asText = {
      sections: JSON.stringify(visibleSections(stored)),
      availablePassages: library.availableJsonFor(stored.beroep),
    };
    const bodies = new ViewBodiesInMemory();
    const body = bodies.bodyOf(view, asText);
    expect(body.json.toString()).toBe(JSON.stringify(view));
    expect(bodies.bodyOf(structuredClone(view), asText)).toBe(body);
  });

  it('when a comment holds the very text that stands in for a large part, then the body is still the view', () => {
    const stored = brief({ status: 'afgekeurd', comments: '\u0000sections:n1' });
    const view = briefView(stored, library.availableFor(stored.beroep), callerOf(null));
    const bodies = new ViewBodiesInMemory(200, 'n1');
    const body = bodies.bodyOf(view, {
      sections: JSON.stringify(stored.sections),
      availablePassages: library.availableJsonFor(stored.beroep),
    });
    expect(body.json.toString()).toBe(JSON.stringify(view));
  });
});

describe('the briefs a process keeps', () => {
  it('when more briefs are kept than the bound, then the oldest goes first and the count stays at it', () => {
    const kept = new KeptBriefsInMemory(2);
    const loaded = (revision: string): LoadedBrief => ({
      ...brief({ revision }),
      json: { sections: JSON.stringify(sections), frozenSections: null },
    });
    for (let i = 0; i < 10; i++) kept.remember(`AV-2026-${i}`, loaded('1'));
    expect(kept.size).toBe(2);
    expect([kept.get('AV-2026-7'), kept.get('AV-2026-8')?.revision, kept.get('AV-2026-9')?.revision]).toEqual([
      undefined,
      '1',
      '1',
    ]);
  });

  it('when an older revision of a kept brief arrives, then the later one stays', () => {
    const kept = new KeptBriefsInMemory(2);
    const json = { sections: '[]', frozenSections: null };
    kept.remember('', { ...brief({ revision: '10' }), json });
    kept.remember('', { ...brief({ revision: '9' }), json });
    expect(kept.get('')?.revision).toBe('10');
  });
});
