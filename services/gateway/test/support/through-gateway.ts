import { randomUUID } from 'node:crypto';

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** One request to the gateway: a JSON body (or a form) out, the JSON answer back. */
export async function call(
  gateway: string,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Answer> {
  const res = await fetch(`${gateway}${url}`, {
    method,
    headers: {
      ...headers,
      ...(body !== undefined && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: body instanceof FormData ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

/** A practitioner's intake with one uploaded diploma, submitted through the gateway (each step must succeed). */
export async function submitIntake(
  gateway: string,
  subject: string,
): Promise<{ me: Record<string, string>; id: string; referentie: string; correlationId: string }> {
  const me = { 'X-Subject': subject, 'X-Role': 'drafter' };
  const created = await call(gateway, 'POST', '/api/v1/applications', me, { type: 'intake' });
  if (created.status !== 201) throw new Error(`create answered ${created.status}`);
  const form = new FormData();
  form.set('wizardId', 'intake');
  form.set('categoryId', 'diploma');
  form.set('localId', randomUUID());
  form.set(
    'file',
    new Blob([Buffer.from(`%PDF-1.4\n${'x'.repeat(300)}\n%%EOF\n`)], { type: 'application/pdf' }),
    'diploma.pdf',
  );
  const upload = await call(gateway, 'POST', '/api/v1/uploads', me, form);
  if (upload.status !== 201) throw new Error(`upload answered ${upload.status}`);
  const submit = await call(gateway, 'POST', `/api/v1/applications/${created.body.id}/submit`, me, {
    diplomaHerkomst: 'handmatig',
    uren: 3000,
    documents: [{ categoryId: 'diploma', channel: 'digitaal', documentId: upload.body.documentId }],
  });
  if (submit.status !== 200) throw new Error(`submit answered ${submit.status}: ${JSON.stringify(submit.body)}`);
  return {
    me,
    id: created.body.id as string,
    referentie: submit.body.referentie as string,
    correlationId: submit.headers.get('x-correlation-id')!,
  };
}
