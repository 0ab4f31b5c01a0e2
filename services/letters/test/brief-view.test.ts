import { practitioner } from '@register/testkit';
import { briefView, briefViewParts, callerOf, viewText } from '../src/briefs/brief-view';
import type { StoredBrief } from '../src/briefs/briefs.repository';
import { composeSections } from '../src/passages/compose';
import { PassageLibrary } from '../src/passages/passage-library';
import { PASSAGES_SEED } from '../src/passages/passages.seed';
import { TEMPLATES_SEED } from '../src/templates/templates.seed';

// The view is sent as JSON text whose large parts (content, passages) are serialised once: it must be the
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
    },
    ...overrides,
  };
}

const json = (b: StoredBrief) => ({
  sections: JSON.stringify(b.sections),
  frozenSections: b.frozenSections && JSON.stringify(b.frozenSections),
});

describe('viewText of briefViewParts', () => {
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
  ])('when it is %s, then the text is JSON.stringify of the view object', (_title, stored, identity) => {
    const caller = callerOf(identity);
    expect(viewText(briefViewParts(stored, json(stored), caller), library.availableJsonFor(stored.beroep))).toBe(
      JSON.stringify(briefView(stored, library.availableFor(stored.beroep), caller)),
    );
  });
});
