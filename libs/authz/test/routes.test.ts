import { VERWERKINGSACTIVITEITEN } from '@register/contracts';
import { ROUTES, SERVICE_PREFIXES, authorize } from '../src';

describe('the route table', () => {
  it("when a route belongs to a service, then its path lies under one of that service's prefixes", () => {
    for (const rule of ROUTES.filter((r) => r.service !== 'gateway')) {
      const prefixes = SERVICE_PREFIXES[rule.service as Exclude<typeof rule.service, 'gateway'>];
      expect(prefixes.some((p) => rule.path === p || rule.path.startsWith(`${p}/`))).toBe(true);
    }
  });

  it(
    'when no identity calls any route but the notification webhook, ' + 'then it is unauthenticated (deny by default)',
    () => {
      for (const rule of ROUTES.filter((r) => r.requires.kind !== 'shared-secret'))
        expect(authorize(rule, null)).toBe('unauthenticated');
    },
  );

  it(
    'when a route is guarded by a shared secret instead of an identity, ' +
      'then it is only the notification webhook (ADR 0001, 0011)',
    () => {
      expect(ROUTES.filter((r) => r.requires.kind === 'shared-secret').map((r) => `${r.method} ${r.path}`)).toEqual([
        'POST /api/v1/notificaties',
      ]);
    },
  );
});

describe('the processing activities of the route table (Logboek Dataverwerkingen, ADR 0180)', () => {
  it('when a route is in the table, then it declares an activity of the register or none', () => {
    const keys = VERWERKINGSACTIVITEITEN.map((a) => a.id.slice(a.id.lastIndexOf('/') + 1));
    const undeclared = ROUTES.filter((r) => !(r.processing === 'none' || keys.includes(r.processing as string))).map(
      (r) => `${r.method} ${r.path}`,
    );
    expect(undeclared).toEqual([]);
  });

  it('when the register lists its activities, then each has a unique URI and every field the register needs', () => {
    const ids = VERWERKINGSACTIVITEITEN.map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const a of VERWERKINGSACTIVITEITEN) {
      expect(a.id).toMatch(/^https:\/\/[^\s]+\/[a-z-]+$/);
      for (const field of [a.naam, a.doel, a.grondslag]) expect(field.length).toBeGreaterThan(0);
      expect(a.categorieen.length).toBeGreaterThan(0);
      expect(a.bewaartermijn).toMatch(/^P\d+[YMD]$/);
    }
  });

  it(
    'when a route processes a practitioner’s data, ' +
      'then the activities cover applying, assessing, letters and the mirror',
    () => {
      const used = new Set(ROUTES.map((r) => r.processing));
      for (const k of ['inzage-registratie', 'aanvragen', 'wijzigingsverzoek', 'beoordelen', 'besluitbrief', 'beheer'])
        expect(used.has(k as never)).toBe(true);
    },
  );
});
