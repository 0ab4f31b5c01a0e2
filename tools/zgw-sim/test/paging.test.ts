import type { ZgwSimulator } from '../src';
import { expectContract } from './helpers/contract';
import { createZaak, startSim, statusBody, zgw } from './helpers/zgw-client';

// Open Zaak pages its lists (count, next, previous, results); the admin case list follows `next`.
describe('paginated lists', () => {
  let sim: ZgwSimulator;
  const identificaties: string[] = [];
  beforeAll(async () => {
    sim = await startSim({ pageSize: 2 });
    for (let i = 0; i < 5; i += 1) identificaties.push((await createZaak(sim)).identificatie);
  });
  afterAll(async () => {
    await sim.close();
  });

  it('when a client follows next from the first page, then it reads every zaak once over three pages', async () => {
    const seen: string[] = [];
    const pages: any[] = [];
    let url: string | null = `${sim.zakenUrl}/zaken?zaaktype=${encodeURIComponent(sim.zaaktypeUrl)}`;

    while (url) {
      const page = await zgw('GET', url);
      await expectContract('zaken', 'zaak_list', page, 200);
      pages.push(page.body);
      seen.push(...page.body.results.map((zaak: any) => zaak.identificatie));
      url = page.body.next;
    }

    expect(pages.map((page) => [page.count, page.results.length])).toEqual([
      [5, 2],
      [5, 2],
      [5, 1],
    ]);
    expect(seen.sort()).toEqual([...identificaties].sort());
    expect(pages[0].previous).toBeNull();
    expect(pages[1].previous).toBe(`${sim.zakenUrl}/zaken?zaaktype=${encodeURIComponent(sim.zaaktypeUrl)}`);
    expect(pages[1].next).toBe(`${sim.zakenUrl}/zaken?page=3&zaaktype=${encodeURIComponent(sim.zaaktypeUrl)}`);
  });

  it('when a page beyond the last is asked, then 404 Ongeldige pagina', async () => {
    const response = await zgw('GET', `${sim.zakenUrl}/zaken?page=4`);

    await expectContract('zaken', 'zaak_list', response, 404);
    expect(response.body.detail).toBe('Ongeldige pagina.');
  });

  it('when pageSize is given, then one page holds them all', async () => {
    const response = await zgw('GET', `${sim.zakenUrl}/zaken?pageSize=10`);

    expect(response.body).toMatchObject({ count: 5, next: null, previous: null });
  });

  it(
    'when the mirror looks a zaak up by identificatie and bronorganisatie, ' + 'then exactly that zaak comes back',
    async () => {
      const wanted = identificaties[3] as string;

      const response = await zgw('GET', `${sim.zakenUrl}/zaken?identificatie=${wanted}&bronorganisatie=${sim.rsin}`);

      expect(response.body.count).toBe(1);
      expect(response.body.results[0].identificatie).toBe(wanted);
    },
  );

  it('when the zaken are ordered by -identificatie, then they come back in that order', async () => {
    const response = await zgw('GET', `${sim.zakenUrl}/zaken?ordering=-identificatie&pageSize=10`);

    expect(response.body.results.map((zaak: any) => zaak.identificatie)).toEqual([...identificaties].sort().reverse());
  });

  it('when statussen of one zaak are listed, then they page like the zaken', async () => {
    const zaak = await createZaak(sim);
    for (let i = 0; i < 3; i += 1) {
      await zgw(
        'POST',
        `${sim.zakenUrl}/statussen`,
        statusBody(sim, zaak.url, { datumStatusGezet: `2025-03-0${i + 1}T09:00:00Z` }),
      );
    }

    const first = await zgw('GET', `${sim.zakenUrl}/statussen?zaak=${encodeURIComponent(zaak.url)}`);
    const second = await zgw('GET', first.body.next);

    await expectContract('zaken', 'status_list', first, 200);
    expect([first.body.count, first.body.results.length, second.body.results.length, second.body.next]).toEqual([
      3,
      2,
      1,
      null,
    ]);
  });
});
