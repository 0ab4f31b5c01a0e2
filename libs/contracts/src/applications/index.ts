import { z } from 'zod';
import { eventContract, needs, own, routeTable, type ProblemType } from '../common';

export const routes = routeTable('applications', {
  dashboardView: { method: 'GET', path: '/api/v1/dashboard-view', processing: 'inzage-registratie', requires: own },
  notes: { method: 'GET', path: '/api/v1/notes', processing: 'inzage-registratie', requires: own },
  populationAddress: {
    method: 'GET',
    path: '/api/v1/population/address',
    processing: 'inzage-registratie',
    requires: own,
  },
  educationDiplomas: {
    method: 'GET',
    path: '/api/v1/education/diplomas',
    processing: 'inzage-registratie',
    requires: own,
  },
  intakePolicy: { method: 'GET', path: '/api/v1/intake/policy', processing: 'none', requires: own },
  changeRequest: { method: 'POST', path: '/api/v1/change-requests', processing: 'wijzigingsverzoek', requires: own },
  listApplications: { method: 'GET', path: '/api/v1/applications', processing: 'inzage-registratie', requires: own },
  createApplication: { method: 'POST', path: '/api/v1/applications', processing: 'aanvragen', requires: own },
  getApplication: { method: 'GET', path: '/api/v1/applications/:id', processing: 'inzage-registratie', requires: own },
  syncDraft: { method: 'PUT', path: '/api/v1/applications/:id', processing: 'aanvragen', requires: own },
  deleteApplication: { method: 'DELETE', path: '/api/v1/applications/:id', processing: 'aanvragen', requires: own },
  submitApplication: {
    method: 'POST',
    path: '/api/v1/applications/:id/submit',
    processing: 'aanvragen',
    requires: own,
  },
  werkvoorraad: {
    method: 'GET',
    path: '/api/v1/werkvoorraad',
    processing: 'beoordelen',
    requires: needs('CanBeoordelen'),
  },
  beoordeling: {
    method: 'GET',
    path: '/api/v1/beoordeling/:id',
    processing: 'beoordelen',
    requires: needs('CanBeoordelen'),
    auditDenialAs: 'beoordeling',
  },
  besluit: {
    method: 'POST',
    path: '/api/v1/beoordeling/:id/besluit',
    processing: 'beoordelen',
    requires: needs('CanBeoordelen'),
    auditDenialAs: 'besluit',
  },
  adminCases: { method: 'GET', path: '/api/v1/admin/cases', processing: 'beheer', requires: needs('cases:admin') },
  adminDeleteCase: {
    method: 'DELETE',
    path: '/api/v1/admin/cases/:id',
    processing: 'beheer',
    requires: needs('cases:admin'),
  },
  /** The operations console's view of the case mirror and an operator's retry (issue 22). */
  caseMirror: {
    method: 'GET',
    path: '/api/v1/admin/case-mirror',
    // Counts and referenties with masked errors: no practitioner's personal data.
    processing: 'none',
    requires: needs('cases:admin'),
    auditDenialAs: 'case-mirror:read',
  },
  retryCaseMirror: {
    method: 'POST',
    path: '/api/v1/admin/case-mirror/:referentie/retry',
    processing: 'beheer',
    requires: needs('cases:admin'),
    auditDenialAs: 'zaaksysteem-retry',
  },
  /** ADR 0011: the zaaksysteem's notifications, guarded by NOTIFICATIES_AUTH instead of an identity. */
  notificaties: {
    method: 'POST',
    path: '/api/v1/notificaties',
    // The zaaksysteem's notice names a zaak URL, no person; what the mirror then does is logged by the mirror.
    processing: 'none',
    requires: { kind: 'shared-secret' },
  },
});

export const problems = {
  'scholing-incompleet': {
    status: 400,
    title: 'Scholing answer incomplete',
    description:
      'For an intake with fewer worked hours than the scholing threshold, `aanvullendeScholing` is required; ' +
      '`scholingPunten` belongs only to a followed scholing and is then at least 1.',
  },
  'invalid-phone-number': {
    status: 422,
    title: 'Invalid phone number',
    description:
      'After removing spaces, dashes, dots and brackets, ' +
      'and turning +31 or 0031 into 0, the number must be 0 followed by nine digits.',
  },
} as const satisfies Record<string, ProblemType>;

const applicationType = z.enum(['intake', 'herregistratie']);

/** Events of the applications context. No owner, name or register number: consumers ask the internal API. */
export const events = {
  submitted: eventContract(
    'register.applications.submitted',
    'application.submitted',
    z.object({
      applicationId: z.uuid(),
      referentie: z.string(),
      type: applicationType,
      documentIds: z.array(z.string()),
      submittedAt: z.string(),
    }),
  ),
  decided: eventContract(
    'register.applications.decided',
    'application.decided',
    z.object({
      applicationId: z.uuid(),
      referentie: z.string().nullable(),
      type: applicationType,
      besluit: z.enum(['toekennen', 'afwijzen', 'buiten-behandeling']),
      status: z.string(),
      decidedAt: z.string(),
    }),
  ),
  changeRequested: eventContract(
    'register.applications.change-requested',
    'change-request.created',
    z.object({
      referentie: z.string(),
      kind: z.literal('telefoon'),
      requestedAt: z.string(),
    }),
  ),
  /** An application (case) was removed by an admin; its documents go too. */
  deleted: eventContract('register.applications.deleted', 'application.deleted', z.object({ applicationId: z.uuid() })),
};

/**
 * The applications service's internal API (a calling service only). Letters reads the case context of a
 * decided case once (it keeps its own copy), instead of reading personal data from events.
 */
export const internal = {
  paths: {
    /** The letter context of one decided application. 404 when unknown or not decided. */
    caseLetterContext: '/internal/applications/:applicationId/letter-context',
    /** The letter context of a practitioner without a case (the shared working brief: subject 900000001). */
    practitionerLetterContext: '/internal/practitioners/:subject/letter-context',
    /** Whether an upload may name this application: the owner's own `Concept` (ADR 0006, 0015). */
    uploadTarget: '/internal/applications/:applicationId/upload-target',
  },
  uploadTargetQuery: z.object({ owner: z.string().regex(/^[A-Za-z0-9._:-]{1,64}$/) }),
  uploadTarget: z.object({ uploadable: z.boolean() }),
  letterContext: z.object({
    applicationId: z.uuid().nullable(),
    referentie: z.string().nullable(),
    type: applicationType.nullable(),
    besluit: z.enum(['toekennen', 'afwijzen', 'buiten-behandeling']).nullable(),
    toelichting: z.string().nullable(),
    decidedAt: z.string().nullable(),
    /** The beroep code of the registration (`arts`, …), null when not registered. */
    beroep: z.string().nullable(),
    zorgverlenerNaam: z.string().nullable(),
    /** Unmasked: letters masks it everywhere but the audited reveal route. */
    registerNummer: z.string().nullable(),
    /**
     * The practitioner the letter is about (their BSN): the data subject of letters' processing records.
     * Optional for a reader of an older applications service, which does not send it.
     */
    subject: z.string().nullable().optional(),
  }),
};
