import { capabilitiesOf } from '@register/authz';
import { caseHandler, practitioner } from '@register/testkit';
import {
  BRIEF_OPERATIONS,
  BRIEF_STATUSES,
  evaluateBrief,
  NEXT_STATUS,
  showsFrozenCopy,
  type BriefOperation,
  type BriefStatusTag,
  type Verdict,
} from '../src/briefs/brief-rules';

// The letter's four-eyes state machine as a table: every status × kind of caller × operation.
const DRAFTER = '900000001';
const callers = {
  drafter: { identity: practitioner(DRAFTER, 'drafter'), id: DRAFTER },
  otherDrafter: { identity: practitioner('900000005', 'drafter'), id: '900000005' },
  approver: { identity: practitioner('900000002', 'approver'), id: '900000002' },
  /** The letter's own drafter, now calling as an approver. */
  drafterAsApprover: { identity: practitioner(DRAFTER, 'approver'), id: DRAFTER },
  admin: { identity: practitioner('900000003', 'admin'), id: '900000003' },
  caseHandler: { identity: caseHandler('mw-001'), id: 'mw-001' },
};
type CallerKind = keyof typeof callers;

/** What ADR 0010 says, written out per operation (not computed the way the implementation does). */
function expected(op: BriefOperation, kind: CallerKind, status: BriefStatusTag): Verdict {
  const drafts = kind === 'drafter' || kind === 'otherDrafter';
  switch (op) {
    case 'edit':
    case 'submit':
      if (!drafts) return 'forbidden';
      return status === 'concept' || status === 'afgekeurd' ? 'allow' : 'conflict';
    case 'approve':
    case 'reject':
      if (kind !== 'approver') return 'forbidden';
      return status === 'ter-goedkeuring' ? 'allow' : 'conflict';
    case 'send':
      return status === 'goedgekeurd' ? 'allow' : 'conflict';
    case 'reset':
      return 'allow';
    case 'reveal':
      return drafts ? 'allow' : 'forbidden';
  }
}

const table = BRIEF_STATUSES.flatMap((status) =>
  (Object.keys(callers) as CallerKind[]).flatMap((kind) =>
    BRIEF_OPERATIONS.map((op) => [status, kind, op, expected(op, kind, status)] as const),
  ),
);

describe('evaluateBrief', () => {
  it(
    'covers the five statuses and seven operations of ADR 0010 ' +
      'for each of the six kinds of caller: 210 distinct cases',
    () => {
      // Written out from ADR 0010, so a status or operation added to the rules fails here until `expected` covers it.
      expect(BRIEF_STATUSES).toEqual(['concept', 'ter-goedkeuring', 'afgekeurd', 'goedgekeurd', 'verzonden']);
      expect(BRIEF_OPERATIONS).toEqual(['edit', 'submit', 'approve', 'reject', 'send', 'reset', 'reveal']);
      expect(new Set(table.map(([status, kind, op]) => `${status} ${kind} ${op}`)).size).toBe(5 * 6 * 7);
    },
  );

  it.each(table)('when the letter is %s and a %s calls %s, then %s', (status, kind, op, verdict) => {
    const { identity, id } = callers[kind];
    expect(evaluateBrief(status, capabilitiesOf(identity), id, DRAFTER).verdicts[op]).toBe(verdict);
  });

  it.each(
    BRIEF_STATUSES.flatMap((status) => (Object.keys(callers) as CallerKind[]).map((kind) => [status, kind] as const)),
  )('when the letter is %s, then the decisions a %s sees are exactly the operations it may do', (status, kind) => {
    const { identity, id } = callers[kind];
    const { decisions, verdicts } = evaluateBrief(status, capabilitiesOf(identity), id, DRAFTER);
    expect(decisions).toEqual({
      canEdit: verdicts.edit === 'allow',
      canApprove: verdicts.approve === 'allow',
      canReject: verdicts.reject === 'allow',
      canSend: verdicts.send === 'allow',
      canRevealRegisterNummer: verdicts.reveal === 'allow',
    });
    expect(decisions.canEdit).toBe(expected('edit', kind, status) === 'allow');
    expect(decisions.canApprove).toBe(expected('approve', kind, status) === 'allow');
  });

  it(
    'when nobody has submitted the letter yet (no drafter), ' +
      'then an approver is refused by the state, not by four eyes',
    () => {
      expect(
        evaluateBrief('concept', capabilitiesOf(practitioner(DRAFTER, 'approver')), DRAFTER, null).verdicts.approve,
      ).toBe('conflict');
    },
  );
});

describe('the four-eyes check without identities', () => {
  it('when neither the caller nor the drafter is known, then an approver is judged by the state alone', () => {
    expect(evaluateBrief('ter-goedkeuring', ['brief:approve'], null, null).verdicts.approve).toBe('allow');
  });
});

describe('NEXT_STATUS (ADR 0010)', () => {
  it('when an operation succeeds, then the letter moves to its status; edit and reveal leave it', () => {
    expect(NEXT_STATUS).toEqual({
      submit: 'ter-goedkeuring',
      approve: 'goedgekeurd',
      reject: 'afgekeurd',
      send: 'verzonden',
      reset: 'concept',
    });
  });
});

describe('showsFrozenCopy (ADR 0010)', () => {
  it.each<[BriefStatusTag, boolean]>([
    ['concept', false],
    ['afgekeurd', false],
    ['ter-goedkeuring', true],
    ['goedgekeurd', true],
    ['verzonden', true],
  ])('when the letter is %s, then the frozen copy is shown: %s', (status, frozen) => {
    expect(showsFrozenCopy(status)).toBe(frozen);
  });
});
