import { randomUUID } from 'node:crypto';
import { eventually } from '@register/testkit';
import { call, diplomaPdf, freshAdmin, pngLogo, practitioner, uploadForm, users } from './api';

/** The audit rows with one correlation id, read through the gateway (gateway → audit). */
async function auditActions(gateway: string, correlationId: string): Promise<string[]> {
  const res = await call(
    gateway,
    'GET',
    `/api/v1/admin/audit?limit=100&correlationId=${encodeURIComponent(correlationId)}`,
    users.admin,
  );
  expect(res.status).toBe(200);
  return (res.body as Array<{ action: string }>).map((r) => r.action);
}

/**
 * At least one call of every route that crosses a service boundary, each checked for the answer the contract
 * gives (ADR 0230): gateway → each service; applications → documents and reference; documents → applications;
 * letters → applications and documents; and the events: a flag change (reference → its snapshot and audit), a
 * decision (applications → letters), an admin delete (applications → documents and audit).
 */
export async function crossEveryBoundary(gateway: string): Promise<void> {
  // gateway (itself, then reference)
  const me = await call(gateway, 'GET', '/api/v1/me', users.admin);
  expect(me.status).toBe(200);
  expect(me.body.capabilities).toContain('flags:write');
  const stamdata = await call(gateway, 'GET', '/api/v1/stamdata/opleidingen', users.admin);
  expect(stamdata.status).toBe(200);

  // A flag change: reference commits it with its audit event; audit stores the row (gateway → audit reads it).
  const flagCorrelation = `mixed-flag-${randomUUID()}`;
  const flag = await call(
    gateway,
    'PUT',
    '/api/v1/admin/flags/herregistratie-aanvragen',
    { ...users.admin, 'X-Correlation-Id': flagCorrelation },
    { enabled: true },
  );
  expect(flag.status).toBe(204);
  expect(
    await eventually(async () => {
      const actions = await auditActions(gateway, flagCorrelation);
      return actions.length > 0 ? actions : undefined;
    }, 30_000),
  ).toEqual(['flag:set']);
  const flags = await call(gateway, 'GET', '/api/v1/flags', users.admin);
  expect(flags.status).toBe(200);
  expect(JSON.stringify(flags.body)).toContain('herregistratie-aanvragen');

  // gateway → applications; applications → reference (the policy questions' wording is stamdata).
  const drafter = practitioner();
  const diplomas = await call(gateway, 'GET', '/api/v1/education/diplomas', drafter);
  expect(diplomas.status).toBe(200);
  expect(diplomas.body.handmatig).toBeDefined();
  const created = await call(gateway, 'POST', '/api/v1/applications', drafter, { type: 'intake' });
  expect(created.status).toBe(201);
  const id = created.body.id as string;

  // gateway → documents; documents → applications (may this owner's upload name this application?).
  const upload = await call(
    gateway,
    'POST',
    '/api/v1/uploads',
    drafter,
    uploadForm('intake', 'diploma', diplomaPdf(), 'diploma.pdf', id),
  );
  expect(upload.status).toBe(201);
  const documentId = upload.body.documentId as string;
  const notOwn = await call(
    gateway,
    'POST',
    '/api/v1/uploads',
    practitioner(),
    uploadForm('intake', 'diploma', diplomaPdf(), 'diploma.pdf', id),
  );
  expect(notOwn.status).toBe(400);
  expect(JSON.stringify(notOwn.body)).toContain('applicationId');

  // applications → documents: the submit checks and links the document.
  const submit = await call(gateway, 'POST', `/api/v1/applications/${id}/submit`, drafter, {
    diplomaHerkomst: 'handmatig',
    uren: 3000,
    documents: [{ categoryId: 'diploma', channel: 'digitaal', documentId }],
  });
  expect(submit.status).toBe(200);
  const referentie = submit.body.referentie as string;
  expect(referentie).toEqual(expect.any(String));
  const content = () => call(gateway, 'GET', `/api/v1/uploads/${documentId}/content`, drafter);
  expect((await content()).status).toBe(200);

  // The decision: applications.decided → letters makes the letter, asking applications for the case context.
  const besluit = await call(gateway, 'POST', `/api/v1/beoordeling/${id}/besluit`, users.beoordelaar, {
    besluit: 'afwijzen',
    toelichting: 'Het diploma is niet erkend.',
  });
  expect(besluit.status).toBe(200);
  const brief = await eventually(async () => {
    const res = await call(gateway, 'GET', `/api/v1/brief?referentie=${encodeURIComponent(referentie)}`, drafter);
    return res.status === 200 ? res : undefined;
  }, 30_000);
  expect(brief.body).toBeTruthy();

  // letters → documents: a letterhead's logo must be an organisatie-logo upload.
  const logo = await call(
    gateway,
    'POST',
    '/api/v1/uploads',
    freshAdmin(),
    uploadForm('orgtemplate', 'organisatie-logo', pngLogo(), 'logo.png'),
  );
  expect(logo.status).toBe(201);
  const template = '/api/v1/admin/org-template/register-buitenland';
  const before = await call(gateway, 'GET', template, users.admin);
  expect(before.status).toBe(200);
  const draft = before.body.draft as Record<string, unknown>;
  const withLogo = await call(gateway, 'PUT', template, users.admin, {
    draft: { ...draft, logoDocumentId: logo.body.documentId },
  });
  expect(withLogo.status).toBe(200);
  expect(withLogo.body.draft.logoDocumentId).toBe(logo.body.documentId);
  const notALogo = await call(gateway, 'PUT', template, users.admin, {
    draft: { ...draft, logoDocumentId: documentId },
  });
  expect(notALogo.status).toBe(400);
  expect(JSON.stringify(notALogo.body)).toContain('not-an-organisatie-logo');
  expect((await call(gateway, 'PUT', template, users.admin, { draft })).status).toBe(200);

  // An admin delete: applications.deleted → documents removes the case's documents; applications' audit row.
  const deleteCorrelation = `mixed-delete-${randomUUID()}`;
  const deleted = await call(gateway, 'DELETE', `/api/v1/admin/cases/${id}`, {
    ...users.admin,
    'X-Correlation-Id': deleteCorrelation,
  });
  expect(deleted.status).toBe(204);
  await eventually(async () => ((await content()).status === 404 ? true : undefined), 30_000);
  expect(
    await eventually(async () => {
      const actions = await auditActions(gateway, deleteCorrelation);
      return actions.length > 0 ? actions : undefined;
    }, 30_000),
  ).toEqual(['case:admin-delete']);
}
