import { anyIdentity, needs, routeTable, type ProblemType } from '../common';

/** An organisation's letter templates hold no practitioner's data; a test letter is filled with sample data. */
const orgTemplateAdmin = {
  requires: needs('orgtemplate:edit'),
  auditDenialAs: 'orgtemplate:edit',
  processing: 'none',
} as const;
const readsLetter = needs('brief:edit', 'brief:approve');
/** ADR 0010: a case's brief is staff data: a letter capability or case administration (403 otherwise). */
const caseBrief = {
  processing: 'besluitbrief',
  scoped: { query: 'referentie', requires: needs('brief:edit', 'brief:approve', 'cases:admin') },
} as const;

/**
 * The letters routes (ADR 0002, 0010). Every brief route takes an optional `?referentie=` (a case's brief).
 * Send and reset need only an identity: the state decides (`canSend`); the others need their capability, and
 * approving or rejecting one's own letter is refused by the letter's state machine. Denials of the reveal route
 * and of the organisation-admin routes are audited (spec, Authentication 6): the gateway writes the row for a
 * missing capability, the letters service for what only it can decide (the step-up header, an allowed reveal).
 */
export const routes = routeTable('letters', {
  getBrief: { method: 'GET', path: '/api/v1/brief', requires: anyIdentity, ...caseBrief },
  saveBrief: { method: 'PUT', path: '/api/v1/brief', requires: needs('brief:edit'), ...caseBrief },
  submitBrief: { method: 'POST', path: '/api/v1/brief/submit', requires: needs('brief:edit'), ...caseBrief },
  approveBrief: { method: 'POST', path: '/api/v1/brief/approve', requires: needs('brief:approve'), ...caseBrief },
  rejectBrief: { method: 'POST', path: '/api/v1/brief/reject', requires: needs('brief:approve'), ...caseBrief },
  sendBrief: { method: 'POST', path: '/api/v1/brief/send', requires: anyIdentity, ...caseBrief },
  resetBrief: { method: 'POST', path: '/api/v1/brief/reset', requires: anyIdentity, ...caseBrief },
  revealRegisterNummer: {
    method: 'POST',
    path: '/api/v1/brief/reveal-registernummer',
    requires: needs('brief:reveal-registernummer'),
    auditDenialAs: 'reveal-registernummer',
    ...caseBrief,
  },
  /** Outside the OpenAPI description (spec, Letters): the letter as HTML and as PDF. */
  previewBrief: { method: 'GET', path: '/api/v1/brief/preview', requires: readsLetter, ...caseBrief },
  briefPdf: { method: 'GET', path: '/api/v1/brief/pdf', requires: readsLetter, ...caseBrief },
  orgTemplates: { method: 'GET', path: '/api/v1/admin/org-templates', ...orgTemplateAdmin },
  getOrgTemplate: { method: 'GET', path: '/api/v1/admin/org-template/:subOrgId', ...orgTemplateAdmin },
  saveOrgTemplate: { method: 'PUT', path: '/api/v1/admin/org-template/:subOrgId', ...orgTemplateAdmin },
  publishOrgTemplate: { method: 'POST', path: '/api/v1/admin/org-template/:subOrgId/publish', ...orgTemplateAdmin },
  rollbackOrgTemplate: {
    method: 'POST',
    path: '/api/v1/admin/org-template/:subOrgId/rollback/:version',
    ...orgTemplateAdmin,
  },
  /** Outside the OpenAPI description: a sample letter on the current draft, as PDF. */
  testLetter: { method: 'POST', path: '/api/v1/admin/org-template/:subOrgId/test-letter', ...orgTemplateAdmin },
});

export const problems = {
  'step-up-required': {
    status: 403,
    title: 'Step-up confirmation required',
    description:
      'Revealing the register number needs the header `X-Step-Up: ' +
      'true`, sent after an explicit confirmation of the user.',
  },
} as const satisfies Record<string, ProblemType>;

/** Audit actions the letters context writes (ADR 0012). */
export const auditActions = {
  reveal: 'reveal-registernummer',
  orgTemplateEdit: 'orgtemplate:edit',
} as const;
