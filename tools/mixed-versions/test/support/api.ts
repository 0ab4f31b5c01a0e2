import { randomUUID } from 'node:crypto';

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** One request to the gateway: a JSON body (or a form) out, the JSON answer (or null) back. */
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
  return { status: res.status, body: parsed(text), headers: res.headers };
}

/** JSON when the body is JSON (a problem, a resource), else the text itself (a bare 404 is empty: null). */
function parsed(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export const users = {
  admin: { 'X-Subject': '900000003', 'X-Role': 'admin' },
  beoordelaar: { 'X-Medewerker': 'mw-001', 'X-Rollen': 'beoordelaar' },
} as const;

/** An admin of its own: an upload slot (wizard, category) holds one unlinked upload per owner. */
export const freshAdmin = (): Record<string, string> => ({
  'X-Subject': `7${String(Date.now()).slice(-6)}${String(Math.floor(Math.random() * 90) + 10)}`,
  'X-Role': 'admin',
});

/** A practitioner of its own: a 9-digit subject no other test of the run uses. */
export const practitioner = (): Record<string, string> => ({
  'X-Subject': `8${String(Date.now()).slice(-6)}${String(Math.floor(Math.random() * 90) + 10)}`,
  'X-Role': 'drafter',
});

export const diplomaPdf = () =>
  new Blob([Buffer.from(`%PDF-1.4\n${'x'.repeat(300)}\n%%EOF\n`)], { type: 'application/pdf' });

/** A 1×1 PNG: an organisation logo the documents service accepts. */
export const pngLogo = () =>
  new Blob(
    [
      Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
        'base64',
      ),
    ],
    { type: 'image/png' },
  );

export function uploadForm(
  wizardId: string,
  categoryId: string,
  file: Blob,
  name: string,
  applicationId?: string,
  localId: string = randomUUID(),
): FormData {
  const form = new FormData();
  form.set('wizardId', wizardId);
  form.set('categoryId', categoryId);
  form.set('localId', localId);
  if (applicationId) form.set('applicationId', applicationId);
  form.set('file', file, name);
  return form;
}
