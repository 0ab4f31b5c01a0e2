import type { WithOutbox } from '@register/service-kit';

/** The letters database; brief and org-template tables join the outbox as their features land. */
export type LettersDb = WithOutbox;
