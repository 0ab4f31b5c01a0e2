import { randomUUID } from 'node:crypto';
import { auditEventsOf } from './support/audit';
import {
  admin,
  approver,
  beoordelaar,
  caseBrief,
  decideCase,
  drafter,
  portal,
  startNeighboursSystem,
  type NeighboursSystem,
} from './support/neighbours-system';

// Audited attempts (spec, Authentication 6; ADR 0010, 0012): every reveal attempt and every denial on the
// organisation-admin routes leaves exactly one audit row on the stream, without personal data. A missing
// capability is refused (and audited) by the gateway; what only letters decides, letters audits.
let system: NeighboursSystem;
beforeAll(async () => {
  system = await startNeighboursSystem();
}, 120_000);
afterAll(async () => system?.close(), 60_000);

/** Calls with a correlation id of its own and returns the answer with the audit events of that request. */
async function audited(
  headers: Record<string, string>,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  extra: Record<string, string> = {},
  body?: unknown,
) {
  const correlationId = `letters-audit-${randomUUID()}`;
  const since = new Date(Date.now() - 2000);
  const client = portal(system, { ...headers, 'X-Correlation-Id': correlationId });
  const res =
    method === 'GET'
      ? await client.get(url, extra)
      : method === 'PUT'
        ? await client.put(url, body ?? {}, extra)
        : await client.post(url, body, extra);
  return { res, events: await auditEventsOf(system, correlationId, since) };
}

const PERSONAL = /900000001|10000000101|A\. de Vries/;

describe('POST /api/v1/brief/reveal-registernummer', () => {
  it(
    'when a drafter confirms with X-Step-Up, then the unmasked ' +
      'number and one allow row naming the letter, not the person',
    async () => {
      const { res, events } = await audited(drafter(), 'POST', '/api/v1/brief/reveal-registernummer', {
        'X-Step-Up': 'true',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ registerNummer: '10000000101' });
      expect(events).toEqual([
        {
          action: 'reveal-registernummer',
          resource: expect.stringMatching(/^brief\/[0-9a-f-]{36}$/),
          decision: 'allow',
          role: 'drafter',
        },
      ]);
      expect(JSON.stringify(events)).not.toMatch(PERSONAL);
    },
  );

  it("when the reveal is for a case's brief, then that case's number", async () => {
    const { referentie } = await decideCase(system, 'toekennen', '900000002');
    await caseBrief(system, referentie);
    const { res, events } = await audited(
      drafter(),
      'POST',
      `/api/v1/brief/reveal-registernummer?referentie=${referentie}`,
      { 'X-Step-Up': 'true' },
    );
    expect(res.status).toBe(200);
    expect(res.body.registerNummer).toMatch(/^\d+$/);
    expect(events).toHaveLength(1);
  });

  it.each<[string, Record<string, string>, Record<string, string>, string, number, string]>([
    ['a drafter without X-Step-Up', drafter(), {}, '', 403, '/problems/step-up-required'],
    ['a drafter with X-Step-Up: false', drafter(), { 'X-Step-Up': 'false' }, '', 403, '/problems/step-up-required'],
    ['an approver', approver(), { 'X-Step-Up': 'true' }, '', 403, '/problems/forbidden'],
    ['an admin', admin(), { 'X-Step-Up': 'true' }, '', 403, '/problems/forbidden'],
    ['a case handler', beoordelaar, { 'X-Step-Up': 'true' }, '', 403, '/problems/forbidden'],
  ])('when %s asks, then refused and exactly one deny row', async (_name, headers, extra, query, status, type) => {
    const { res, events } = await audited(headers, 'POST', `/api/v1/brief/reveal-registernummer${query}`, extra);
    expect(res.status).toBe(status);
    expect(res.body.type).toBe(type);
    expect(res.text).not.toMatch(PERSONAL);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ action: 'reveal-registernummer', decision: 'deny' });
    expect(JSON.stringify(events)).not.toMatch(PERSONAL);
  });

  it.each<[string, Record<string, string>, string, number]>([
    ['a drafter names a referentie that cannot be one', drafter(), `?referentie=${'A'.repeat(65)}`, 400],
    ['a drafter names two referenties', drafter(), '?referentie=AV-1&referentie=AV-2', 400],
    ['a drafter sends a malformed step-up header', drafter(), '', 403],
    ['an approver names a referentie that cannot be one', approver(), `?referentie=${'A'.repeat(65)}`, 403],
  ])('when %s, then refused and exactly one deny row', async (_name, headers, query, status) => {
    const { res, events } = await audited(headers, 'POST', `/api/v1/brief/reveal-registernummer${query}`, {
      'X-Step-Up': query ? 'true' : 'yes please',
    });
    expect(res.status).toBe(status);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ action: 'reveal-registernummer', decision: 'deny' });
    expect(JSON.stringify(events)).not.toMatch(PERSONAL);
  });

  it('when the referentie is unknown, then a bare 404 and one deny row', async () => {
    const { res, events } = await audited(
      drafter(),
      'POST',
      '/api/v1/brief/reveal-registernummer?referentie=AV-1999-000001',
      { 'X-Step-Up': 'true' },
    );
    expect(res.status).toBe(404);
    expect(res.text).toBe('');
    expect(events).toEqual([
      {
        action: 'reveal-registernummer',
        resource: '/api/v1/brief/reveal-registernummer',
        decision: 'deny',
        role: 'drafter',
      },
    ]);
  });
});

describe('the organisation-admin routes', () => {
  const routes: Array<['GET' | 'POST' | 'PUT', string]> = [
    ['GET', '/api/v1/admin/org-templates'],
    ['GET', '/api/v1/admin/org-template/register'],
    ['PUT', '/api/v1/admin/org-template/register'],
    ['POST', '/api/v1/admin/org-template/register/publish'],
    ['POST', '/api/v1/admin/org-template/register/rollback/1'],
    ['POST', '/api/v1/admin/org-template/register/test-letter'],
  ];

  const denied: Array<[string, Record<string, string>, string]> = [
    ['a drafter', drafter(), 'drafter'],
    ['an approver', approver(), 'approver'],
    ['a practitioner without a role', { 'X-Subject': '900000001' }, 'drafter'],
    ['a case handler', beoordelaar, 'beoordelaar'],
    ['a case handler without roles', { 'X-Medewerker': 'mw-zonder-rol' }, 'none'],
  ];
  // Also an unknown sub-organisation, an unknown version and a body that would be refused: 403 comes first.
  const attempts: Array<['GET' | 'POST' | 'PUT', string, unknown?]> = [
    ...routes,
    ['GET', '/api/v1/admin/org-template/onbekend'],
    ['PUT', '/api/v1/admin/org-template/register', { draft: { orgName: '' } }],
    ['POST', '/api/v1/admin/org-template/onbekend/rollback/99'],
  ];

  it.each(denied)(
    'when %s calls every organisation-admin route, then each is 403 with exactly one orgtemplate:edit deny row',
    async (_name, headers, role) => {
      const wrong: string[] = [];
      for (const [method, url, body] of attempts) {
        const { res, events } = await audited(headers, method, url, {}, body);
        // The row names the route (its pattern), never who asked or which sub-organisation.
        const resource = url
          .replace(/org-template\/[^/]+/, 'org-template/:subOrgId')
          .replace(/rollback\/[^/]+$/, 'rollback/:version');
        if (res.status !== 403 || res.body?.type !== '/problems/forbidden')
          wrong.push(`${method} ${url}: ${res.status}`);
        const rows = events.map((e) => ({
          action: e.action,
          resource: e.resource,
          decision: e.decision,
          role: e.role,
        }));
        if (JSON.stringify(rows) !== JSON.stringify([{ action: 'orgtemplate:edit', resource, decision: 'deny', role }]))
          wrong.push(`${method} ${url}: rows ${JSON.stringify(rows)}`);
      }
      expect(wrong).toEqual([]);
    },
  );

  it('when a case handler is refused, then the row names its roles, not the person', async () => {
    const { res, events } = await audited(beoordelaar, 'GET', '/api/v1/admin/org-templates');
    expect(res.status).toBe(403);
    expect(events).toEqual([
      { action: 'orgtemplate:edit', resource: '/api/v1/admin/org-templates', decision: 'deny', role: 'beoordelaar' },
    ]);
  });

  it('when an admin is allowed, then no deny row', async () => {
    const { res, events } = await audited(admin(), 'GET', '/api/v1/admin/org-templates');
    expect(res.status).toBe(200);
    expect(events).toEqual([]);
  });
});
