import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startSystem, type TestSystem } from './support/system';

// Issue 23, item 0: what the committed description says of an answer is what the system does. Each case makes
// a call the description once misdescribed and checks the answer against libs/api-types/openapi.json.
interface Operation {
  security?: Array<Record<string, string[]>>;
  responses: Record<string, { content?: Record<string, unknown> }>;
}
interface Description {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { in?: string; name?: string }> };
}
const description = JSON.parse(
  readFileSync(path.resolve(__dirname, '..', '..', '..', 'libs', 'api-types', 'openapi.json'), 'utf8'),
) as Description;

const operation = (method: string, template: string): Operation => {
  const op = description.paths[template]?.[method.toLowerCase()];
  if (!op) throw new Error(`${method} ${template} is not in the description`);
  return op;
};

/** The header names of each security alternative; a call satisfies one when it sends all of its headers. */
function satisfiedAlternatives(op: Operation, headers: Record<string, string>): number {
  const sent = new Set(Object.keys(headers).map((h) => h.toLowerCase()));
  const schemes = description.components.securitySchemes;
  return (op.security ?? []).filter((alt) =>
    Object.keys(alt).every((name) => sent.has((schemes[name]?.name ?? name).toLowerCase())),
  ).length;
}

const mediaType = (res: Response) => (res.headers.get('content-type') ?? '').split(';')[0]!.trim();

let sys: TestSystem;
beforeAll(async () => {
  sys = await startSystem({ validatingProxy: true });
}, 120_000);
afterAll(async () => sys?.close(), 60_000);
// Each call also goes through the validating proxy (ADR 0226): request and answer keep to the description.
afterEach(async () => expect(await sys.violations()).toEqual([]));

const subjectOnly = { 'X-Subject': '900000001' };
const json = { 'content-type': 'application/json' };

describe('the description tells the truth', () => {
  it(
    'when a practitioner sends X-Subject without X-Role, ' +
      'then the answer is 200 and one security alternative holds',
    async () => {
      const res = await fetch(`${sys.gateway}/api/v1/me`, { headers: subjectOnly });
      expect(res.status).toBe(200);
      const op = operation('GET', '/me');
      expect(Object.keys(op.responses)).toContain('200');
      expect(satisfiedAlternatives(op, subjectOnly)).toBeGreaterThan(0);
    },
  );

  it(
    'when a case handler sends X-Medewerker without X-Rollen, ' + 'then one security alternative holds for its answer',
    async () => {
      const headers = { 'X-Medewerker': 'mw-009' };
      const res = await fetch(`${sys.gateway}/api/v1/werkvoorraad`, { headers });
      const op = operation('GET', '/werkvoorraad');
      expect(Object.keys(op.responses)).toContain(String(res.status));
      expect(satisfiedAlternatives(op, headers)).toBeGreaterThan(0);
    },
  );

  it('when an Idempotency-Key is reused with another body, then the 422 is documented for that write', async () => {
    const headers = { ...subjectOnly, ...json, 'Idempotency-Key': randomUUID() };
    const first = await fetch(`${sys.gateway}/api/v1/change-requests`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ telefoon: '0612345678' }),
    });
    expect(first.status).toBe(200);
    const reused = await fetch(`${sys.gateway}/api/v1/change-requests`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ telefoon: '0687654321' }),
    });
    expect(reused.status).toBe(422);
    const documented = operation('POST', '/change-requests').responses['422'];
    expect(Object.keys(documented?.content ?? {})).toContain(mediaType(reused));
  });

  it(
    'when a letter is addressed by an unknown referentie, ' +
      'then GET /brief and POST /brief/reset answer a documented 404',
    async () => {
      const headers = { ...subjectOnly, 'X-Role': 'drafter' };
      const read = await fetch(`${sys.gateway}/api/v1/brief?referentie=ZZ-unknown-1`, { headers });
      const reset = await fetch(`${sys.gateway}/api/v1/brief/reset?referentie=ZZ-unknown-1`, {
        method: 'POST',
        headers,
      });
      expect([read.status, reset.status]).toEqual([404, 404]);
      expect(Object.keys(operation('GET', '/brief').responses)).toContain('404');
      expect(Object.keys(operation('POST', '/brief/reset').responses)).toContain('404');
    },
  );

  it(
    'when an uploaded PDF is downloaded, then it is served ' + 'as application/pdf and the description names that type',
    async () => {
      const form = new FormData();
      form.set('wizardId', 'intake');
      form.set('categoryId', 'overig');
      form.set('file', new Blob([Buffer.from('%PDF-1.4\n' + 'x'.repeat(500))], { type: 'application/pdf' }), 'b.pdf');
      const uploaded = await fetch(`${sys.gateway}/api/v1/uploads`, {
        method: 'POST',
        headers: subjectOnly,
        body: form,
      });
      expect(uploaded.status).toBe(201);
      const { documentId } = (await uploaded.json()) as { documentId: string };
      const content = await fetch(`${sys.gateway}/api/v1/uploads/${documentId}/content`, { headers: subjectOnly });
      expect([content.status, mediaType(content)]).toEqual([200, 'application/pdf']);
      const documented = operation('GET', '/uploads/{documentId}/content').responses['200']?.content ?? {};
      expect(Object.keys(documented)).toContain('application/pdf');
    },
  );
});
