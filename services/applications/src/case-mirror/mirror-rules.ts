import { backoffMs } from '@register/service-kit';

/** ADR 0011: at most 3 attempts of a step, and only after a failure without an HTTP answer. */
export const MAX_ATTEMPTS = 3;
/** The pause before the n-th retry of a step: 500 ms, then 1 s. */
export const retryDelayMs = (retry: number): number => backoffMs(retry, 500, 5000);

/**
 * A failure of one call or step: `transport` (no HTTP answer: retried) or `diverged` (an answer we cannot use: never
 * retried).
 */
export type Failure = { kind: 'transport'; detail: string } | { kind: 'diverged'; detail: string };
export type Result<T> = { kind: 'ok'; value: T } | Failure;

export const ok = <T>(value: T): Result<T> => ({ kind: 'ok', value });
export const diverged = (detail: string): Failure => ({ kind: 'diverged', detail: detail.slice(0, 500) });

/** A step of a case, in the order the mirror makes them; its key is what the step records table holds. */
export type Step =
  | { kind: 'zaak'; key: 'zaak' }
  | { kind: 'ingediend'; key: 'status:ingediend' }
  | { kind: 'initiator'; key: 'rol:initiator' }
  | { kind: 'document'; key: `eio:${string}`; documentId: string; index: number }
  | { kind: 'relation'; key: `zio:${string}`; documentId: string }
  | { kind: 'besluit'; key: 'status:besluit' }
  | { kind: 'delete'; key: 'delete' };

/**
 * ADR 0011: zaak → status (lowest volgnummer) → initiator rol → per digital document the information
 * object and its relation; after a besluit the next status. An admin delete replaces whatever was still owed.
 */
export function plannedSteps(c: {
  documentIds: readonly string[];
  decided: boolean;
  deleteRequested: boolean;
}): Step[] {
  if (c.deleteRequested) return [{ kind: 'delete', key: 'delete' }];
  const steps: Step[] = [
    { kind: 'zaak', key: 'zaak' },
    { kind: 'ingediend', key: 'status:ingediend' },
    { kind: 'initiator', key: 'rol:initiator' },
  ];
  c.documentIds.forEach((documentId, index) => {
    steps.push({ kind: 'document', key: `eio:${documentId}`, documentId, index });
    steps.push({ kind: 'relation', key: `zio:${documentId}`, documentId });
  });
  if (c.decided) steps.push({ kind: 'besluit', key: 'status:besluit' });
  return steps;
}

/** The steps not recorded yet, in order: a retry, a crash or a restart continues with the first of them. */
export function remainingSteps(planned: readonly Step[], recorded: ReadonlySet<string>): Step[] {
  return planned.filter((step) => !recorded.has(step.key));
}

/** What separates the besluit from its toelichting in `statustoelichting`. */
const BESLUIT_SEPARATOR = ':';

/**
 * `statustoelichting` of the besluit status: the besluit, and its toelichting after a colon (at most 1000 characters).
 */
export function besluitToelichting(besluit: string, toelichting: string | null): string {
  const text = toelichting?.trim() ? `${besluit}${BESLUIT_SEPARATOR} ${toelichting.trim()}` : besluit;
  return text.slice(0, 1000);
}

/** The besluit a status toelichting written by `besluitToelichting` starts with; null for any other text. */
export function besluitOf(statustoelichting: string | null | undefined): string | null {
  // A split gives at least one part, and no text reads as no besluit whatever stands in for it.
  // Stryker disable next-line OptionalChaining,StringLiteral
  const head = (statustoelichting ?? '').split(BESLUIT_SEPARATOR, 1)[0]?.trim() ?? '';
  return ['toekennen', 'afwijzen', 'buiten-behandeling'].includes(head) ? head : null;
}

/** The eleven-test (elfproef) Open Zaak applies to a BSN and an RSIN: 9 digits, weights 9…2 and −1. */
export function passesElevenTest(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const digits = [...value].map(Number);
  const sum = digits.slice(0, 8).reduce((total, digit, i) => total + digit * (9 - i), 0) - digits[8]!;
  return sum % 11 === 0;
}

/**
 * The initiator's identification: `inpBsn` = the owner (ADR 0011). A subject that is no BSN (the demo
 * subjects fail the eleven-test, which Open Zaak applies) goes in `anpIdentificatie`, the field for a person
 * without a BSN, instead of making every demo case diverge.
 */
export function betrokkeneIdentificatie(owner: string): { inpBsn: string } | { anpIdentificatie: string } {
  return passesElevenTest(owner) ? { inpBsn: owner } : { anpIdentificatie: owner.slice(0, 17) };
}

/** The document's `identificatie`, unique per bronorganisatie like the zaak's: how a lost answer is found again. */
export function documentIdentificatie(referentie: string, index: number): string {
  return `${referentie}-D${index + 1}`.slice(0, 40);
}

/** Open Zaak's refusals of a second copy (zrc-002 identificatie, a unique pair, a second initiator). */
const DUPLICATE_CODES = new Set(['identificatie-niet-uniek', 'unique', 'max-occurences']);

/** A 400 that says the resource already exists: an earlier try (whose answer was lost) created it. */
export function isDuplicateRefusal(status: number, body: unknown): boolean {
  if (status !== 400) return false;
  const params = (body as { invalidParams?: unknown } | null | undefined)?.invalidParams;
  return (
    Array.isArray(params) &&
    params.some((p) => DUPLICATE_CODES.has(String((p as { code?: unknown } | null | undefined)?.code)))
  );
}
