import { needs, routeTable } from '../common';

export const routes = routeTable('audit', {
  auditLog: { method: 'GET', path: '/api/v1/admin/audit', requires: needs('audit:read') },
  /** The events a durable consumer gave up on (issue 22): listed, replayed or discarded by an operator. */
  deadLetters: {
    method: 'GET',
    path: '/api/v1/admin/dead-letters',
    requires: needs('audit:read'),
    auditDenialAs: 'dead-letter:list',
  },
  replayDeadLetter: {
    method: 'POST',
    path: '/api/v1/admin/dead-letters/:id/replay',
    requires: needs('audit:read'),
    auditDenialAs: 'dead-letter:replay',
  },
  discardDeadLetter: {
    method: 'DELETE',
    path: '/api/v1/admin/dead-letters/:id',
    requires: needs('audit:read'),
    auditDenialAs: 'dead-letter:discard',
  },
});

/** Audit actions of the operator's dead-letter work. */
export const DEAD_LETTER_ACTIONS = { replay: 'dead-letter:replay', discard: 'dead-letter:discard' } as const;
