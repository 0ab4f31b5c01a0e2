import type { z } from 'zod';
import type { applications } from '@register/contracts';

/** The applications service's letter context of a case (or of a practitioner without one); unmasked. */
export type LetterContext = z.infer<typeof applications.internal.letterContext>;

/** The port: where letters fetches a case's context, once, to keep its own copy. */
export interface CaseContextSource {
  /** The context of one decided application; null when the applications service does not know it (404). */
  ofCase(applicationId: string): Promise<LetterContext | null>;
  /** The context of a practitioner without a case (the shared working brief); null when unknown. */
  ofPractitioner(subject: string): Promise<LetterContext | null>;
}
