import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Beside the frozen v1.0.0 event schemas: one payload of each subject as v1.0.0 publishes it (ADR 0228). */
export const V1_SAMPLES = path.resolve(__dirname, '..', '..', '..', 'docs', 'api', 'v1.0.0', 'samples');

/** The frozen v1.0.0 sample of an event subject's payload (`data`), a fresh copy on each call. */
export function v1Sample<T extends Record<string, unknown> = Record<string, unknown>>(subject: string): T {
  return JSON.parse(readFileSync(path.join(V1_SAMPLES, `${subject}.json`), 'utf8')) as T;
}

/** A field no version of the contract has, as a later minor version may add one. */
export const UNKNOWN_FIELD = { kenmerkVanEenLatereVersie: 'genegeerd' } as const;

/**
 * What a consumer must handle of each subject it reads: the v1.0.0 sample as published, and with a field it does not
 * know.
 */
export const V1_VARIANTS = ['as published', 'with a field it does not know'] as const;
export type V1Variant = (typeof V1_VARIANTS)[number];

/**
 * A subject's v1.0.0 sample in one of the variants: its payload (`data`) and what to add to its envelope (the
 * unknown field goes in both). `pin` replaces the sample's identifiers with ones the test set up.
 */
export function v1Event<T extends Record<string, unknown> = Record<string, unknown>>(
  subject: string,
  variant: V1Variant,
  pin: Partial<T> = {},
): { data: T; envelope: Record<string, unknown> } {
  const data = { ...v1Sample<T>(subject), ...pin };
  return variant === V1_VARIANTS[0]
    ? { data, envelope: {} }
    : { data: { ...data, ...UNKNOWN_FIELD }, envelope: { ...UNKNOWN_FIELD } };
}
