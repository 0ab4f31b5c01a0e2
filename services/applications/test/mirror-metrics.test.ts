import { freePort } from '@register/embedded';
import { eventually, uniqueSubject } from '@register/testkit';
import { mirrored, notify, startMirrorSystem, submitIntake, type MirrorSystem } from './support/mirror-system';
import { as } from './support/neighbours-system';

// The mirror's gauges on the service's own metrics port (issue 14): backlog and open divergences.
let system: MirrorSystem;
let metricsPort: number;
beforeAll(async () => {
  metricsPort = await freePort();
  system = await startMirrorSystem({ env: { METRICS_PORT: String(metricsPort) } });
}, 120_000);
afterAll(() => system.close());
afterEach(() => system.sim.faults.clear());

async function gauges(): Promise<Record<string, number>> {
  const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  expect(res.status).toBe(200);
  const text = await res.text();
  const values: Record<string, number> = {};
  for (const name of ['case_mirror_backlog', 'case_mirror_divergences', 'case_mirror_oldest_divergence_seconds']) {
    const line = text.split('\n').find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
    if (line === undefined) throw new Error(`${name} is not in /metrics`);
    values[name] = Number(line.split(' ').at(-1));
  }
  return values;
}

describe('the case mirror on /metrics', () => {
  it('when every case is mirrored, then backlog and divergences are 0', async () => {
    const { referentie } = await submitIntake(system, uniqueSubject(), 0);
    await mirrored(system, referentie);
    await eventually(async () => ((await gauges())['case_mirror_backlog'] === 0 ? true : undefined));
    expect(await gauges()).toEqual({
      case_mirror_backlog: 0,
      case_mirror_divergences: 0,
      case_mirror_oldest_divergence_seconds: 0,
    });
  });

  it(
    'when a case diverges, then it counts as one open divergence with an age, until ' + 'the reconciler heals it',
    async () => {
      system.sim.faults.add({ path: '/zaken/api/v1/rollen', method: 'POST', mode: 'status', status: 500, count: 1 });
      const subject = uniqueSubject();
      const { id, referentie } = await submitIntake(system, subject, 0);
      await eventually(async () =>
        (await as.practitioner(system, subject).get(`/api/v1/applications/${id}`)).body.status.manual
          ? true
          : undefined,
      );

      const diverged = await gauges();
      expect(diverged['case_mirror_divergences']).toBe(1);
      expect(diverged['case_mirror_oldest_divergence_seconds']).toBeGreaterThan(0);

      // The zaak's notification makes the reconciler look at once (the interval here is a minute).
      const zaakUrl = String(system.sim.state.zakenWithIdentificatie(referentie)[0]!.zaak['url']);
      expect(
        (
          await notify(system, {
            kanaal: 'zaken',
            hoofdObject: zaakUrl,
            resource: 'zaak',
            resourceUrl: zaakUrl,
            actie: 'partial_update',
            aanmaakdatum: new Date().toISOString(),
            kenmerken: { bronorganisatie: system.sim.rsin },
          })
        ).status,
      ).toBe(204);
      await eventually(async () => ((await gauges())['case_mirror_divergences'] === 0 ? true : undefined));
      expect((await gauges())['case_mirror_oldest_divergence_seconds']).toBe(0);
    },
  );
});
