import { anyIdentity, needs, own, routeTable } from '../common';

export const routes = routeTable('audit', {
  /** The register of processing activities (Logboek Dataverwerkingen, issue 24): public to every identity. */
  verwerkingsactiviteiten: {
    method: 'GET',
    path: '/api/v1/verwerkingsactiviteiten',
    requires: anyIdentity,
    processing: 'none',
  },
  /**
   * A practitioner's inzage in the processing of their own data (ADR 0181). Reading one's own log is not logged
   * again: it reads pseudonymised records only, and a log of every look at the log would feed itself.
   */
  meVerwerkingen: { method: 'GET', path: '/api/v1/me/verwerkingen', requires: own, processing: 'none' },
  auditLog: { method: 'GET', path: '/api/v1/admin/audit', processing: 'none', requires: needs('audit:read') },
  /** The events a durable consumer gave up on (issue 22): listed, replayed or discarded by an operator. */
  deadLetters: {
    method: 'GET',
    path: '/api/v1/admin/dead-letters',
    processing: 'none',
    requires: needs('audit:read'),
    auditDenialAs: 'dead-letter:list',
  },
  replayDeadLetter: {
    method: 'POST',
    path: '/api/v1/admin/dead-letters/:id/replay',
    processing: 'none',
    requires: needs('audit:read'),
    auditDenialAs: 'dead-letter:replay',
  },
  discardDeadLetter: {
    method: 'DELETE',
    path: '/api/v1/admin/dead-letters/:id',
    processing: 'none',
    requires: needs('audit:read'),
    auditDenialAs: 'dead-letter:discard',
  },
});

/** Audit actions of the operator's dead-letter work. */
export const DEAD_LETTER_ACTIONS = { replay: 'dead-letter:replay', discard: 'dead-letter:discard' } as const;
