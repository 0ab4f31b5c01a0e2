import { VERWERKINGSACTIVITEITEN } from '@register/contracts';
import { asUser, caseHandler, practitioner } from '@register/testkit';
import { startAuditSystem, type AuditSystem } from './support/system';

let h: AuditSystem;
beforeAll(async () => {
  h = await startAuditSystem();
});
afterAll(async () => h.close());

const get = (headers: Record<string, string>) => fetch(`${h.url}/api/v1/verwerkingsactiviteiten`, { headers });

describe('GET /api/v1/verwerkingsactiviteiten', () => {
  it(
    'when a practitioner or a case handler asks, ' +
      'then each gets every activity of the register in its public shape',
    async () => {
      for (const who of [practitioner('900000001'), caseHandler('m-1')]) {
        const res = await get(asUser(who));
        expect(res.status).toBe(200);
        const body = (await res.json()) as Array<Record<string, unknown>>;
        expect(body).toEqual(
          VERWERKINGSACTIVITEITEN.map((a) => ({
            id: a.id,
            naam: a.naam,
            doel: a.doel,
            grondslag: a.grondslag,
            bewaartermijn: a.bewaartermijn,
          })),
        );
        expect(body.map((a) => a['id'])).toContain('https://register.example.nl/verwerkingsactiviteiten/aanvragen');
      }
    },
  );

  it('when no identity asks, then it is a 401 problem', async () => {
    const res = await get(asUser(null));
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });
});
