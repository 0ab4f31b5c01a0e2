/** The CLI works on the same dead letters as the audit service's operator routes: the logic lives in the kit. */
export {
  discardDeadLetter,
  findDeadLetter,
  listDeadLetters,
  replayDeadLetter,
  type StoredDeadLetter,
} from '@register/service-kit';
