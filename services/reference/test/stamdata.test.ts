import { sql } from 'kysely';
import { asUser, caseHandler, practitioner } from '@register/testkit';
import { startReferenceSystem, type ReferenceSystem } from './support/system';

let h: ReferenceSystem;
// A fixed "now": 2026-06-30T22:30Z is already 2026-07-01 in Amsterdam (and still 2026-06-30 in UTC).
const clock = { now: () => new Date('2026-06-30T22:30:00.000Z') };
const AMSTERDAM_TODAY = '2026-07-01';
const UTC_TODAY = '2026-06-30';

/** A row of this file's own database that is valid from `vanaf` until `tot` (exclusive). */
async function seedOpleiding(code: string, vanaf: string, tot: string | null): Promise<void> {
  const data = {
    code,
    naam: code,
    instelling: 'Testinstelling',
    beroep: 'arts',
    niveau: 'master',
    geldigVanaf: vanaf,
    geldigTot: tot,
  };
  await sql`INSERT INTO stamdata_row (table_id, row_key, geldig_vanaf, geldig_tot, data, position)
    VALUES ('opleidingen', ${code}, ${vanaf}::date, ${tot}::date, ${JSON.stringify(data)}::jsonb, 10000)`.execute(
    h.context.db,
  );
}

beforeAll(async () => {
  h = await startReferenceSystem(clock);
  // Rows on which the Amsterdam date and the UTC date disagree: one starts today in Amsterdam, one ends then.
  await seedOpleiding('t-start-amsterdam-today', AMSTERDAM_TODAY, null);
  await seedOpleiding('t-end-amsterdam-today', '2020-01-01', AMSTERDAM_TODAY);
  // Stamdata is served from memory and has no write route: rows written behind the service's back are served
  // once the snapshot is read again.
  await h.context.snapshot.reload();
});
afterAll(async () => h.close());

const admin = asUser(practitioner('900000001', 'admin'));
const get = (path: string, headers = admin) => fetch(`${h.url}${path}`, { headers });

async function codes(peildatum?: string): Promise<string[]> {
  const res = await get(`/api/v1/stamdata/opleidingen${peildatum ? `?peildatum=${peildatum}` : ''}`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { rows: Array<{ code: string }> };
  return body.rows.map((r) => r.code);
}

describe('GET /api/v1/stamdata', () => {
  it('when an admin asks, then every table is summarised with its columns', async () => {
    const res = await get('/api/v1/stamdata');
    expect(res.status).toBe(200);
    const tables = (await res.json()) as Array<{
      id: string;
      temporal: boolean;
      columns: Array<{ name: string; type: string; isKey: boolean }>;
    }>;
    expect(tables.map((t) => t.id)).toEqual(['beroepen', 'opleidingen', 'specialismen', 'beleidsvragen']);
    expect(tables.find((t) => t.id === 'opleidingen')?.temporal).toBe(true);
    expect(tables.find((t) => t.id === 'beroepen')?.columns.find((c) => c.isKey)?.name).toBe('code');
    expect(tables.find((t) => t.id === 'opleidingen')?.columns.find((c) => c.name === 'beroep')?.type).toBe(
      'ref:beroepen.code',
    );
    expect(Object.keys(tables[0] as object).sort()).toEqual(['columns', 'id', 'label', 'temporal']);
  });

  it('when a beoordelaar asks, then it is allowed; a drafter is forbidden', async () => {
    expect((await get('/api/v1/stamdata', asUser(caseHandler('mw-1', ['beoordelaar'])))).status).toBe(200);
    const denied = await get('/api/v1/stamdata', asUser(practitioner('900000001', 'drafter')));
    expect(denied.status).toBe(403);
    expect(denied.headers.get('content-type')).toContain('application/problem+json');
  });
});

describe('GET /api/v1/stamdata paged (ADR 0014)', () => {
  it(
    'when limit and cursor are used, ' + 'then the tables come a page at a time with Link rel="next", each once',
    async () => {
      const all = ((await (await get('/api/v1/stamdata')).json()) as Array<{ id: string }>).map((t) => t.id);
      const paged: string[] = [];
      let next: string | null = '/api/v1/stamdata?limit=3';
      while (next !== null) {
        const res: Response = await get(next);
        expect(res.status).toBe(200);
        const page = ((await res.json()) as Array<{ id: string }>).map((t) => t.id);
        expect(page.length).toBeLessThanOrEqual(3);
        paged.push(...page);
        const link = res.headers.get('link');
        next = link ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? 'malformed Link') : null;
      }
      expect(paged).toEqual(all);
    },
  );

  it.each([
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['cursor=garbage', 'cursor'],
  ])('when %s, then 400 naming %s', async (query, field) => {
    const res = await get(`/api/v1/stamdata?${query}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: Array<{ field: string }> }).errors.map((e) => e.field)).toEqual([field]);
  });
});

describe('GET /api/v1/stamdata/:table', () => {
  it('when peildatum is the first day of a validity period, then the row is included (vanaf inclusive)', async () => {
    expect(await codes('2027-01-01')).toContain('gz-opleiding-psytrec');
    expect(await codes('2026-12-31')).not.toContain('gz-opleiding-psytrec');
  });

  it('when peildatum is the end date, then the row is excluded (tot exclusive)', async () => {
    expect(await codes('2023-12-31')).toContain('gz-opleiding-rinozh');
    expect(await codes('2024-01-01')).not.toContain('gz-opleiding-rinozh');
  });

  it(
    'when peildatum is omitted late in the evening UTC, ' + 'then today in Amsterdam is used, not the UTC date',
    async () => {
      const today = await codes();
      expect(today).toContain('t-start-amsterdam-today');
      expect(today).not.toContain('t-end-amsterdam-today');
      expect(today).toEqual(await codes(AMSTERDAM_TODAY));
      // The UTC date gives another answer, so the first two lines tell the two apart.
      const utc = await codes(UTC_TODAY);
      expect(utc).not.toContain('t-start-amsterdam-today');
      expect(utc).toContain('t-end-amsterdam-today');
    },
  );

  it(
    'when the shipped rows are read over the years, then at least 30 exist, ' +
      'at least 3 have ended and at least 2 start after today',
    async () => {
      const rows = new Map<string, { geldigVanaf: string; geldigTot: string | null }>();
      for (let year = 1970; year <= 2035; year++) {
        const res = await get(`/api/v1/stamdata/opleidingen?peildatum=${year}-07-01`);
        const body = (await res.json()) as {
          rows: Array<{ code: string; geldigVanaf: string; geldigTot: string | null }>;
        };
        for (const row of body.rows) if (!row.code.startsWith('t-')) rows.set(row.code, row);
      }
      const shipped = [...rows.values()];
      expect(shipped.length).toBeGreaterThanOrEqual(30);
      expect(
        shipped.filter((r) => r.geldigTot !== null && r.geldigTot <= AMSTERDAM_TODAY).length,
      ).toBeGreaterThanOrEqual(3);
      expect(shipped.filter((r) => r.geldigVanaf > AMSTERDAM_TODAY).length).toBeGreaterThanOrEqual(2);
    },
  );

  it.each(['2024-13-01', '2024-02-30', '20240101', 'morgen', '2024-1-01'])(
    'when peildatum is %s, then 400 on every table',
    async (peildatum) => {
      const tables = ((await (await get('/api/v1/stamdata')).json()) as Array<{ id: string }>).map((t) => t.id);
      expect(tables).toHaveLength(4);
      for (const table of tables) {
        const res = await get(`/api/v1/stamdata/${table}?peildatum=${peildatum}`);
        expect(res.status).toBe(400);
        const body = (await res.json()) as { type: string; errors: Array<{ field: string }> };
        expect(body.type).toBe('/problems/validation');
        expect(body.errors[0]?.field).toBe('peildatum');
      }
    },
  );

  it('when a valid peildatum is given for a non-temporal table, then it changes nothing', async () => {
    const plain = (await (await get('/api/v1/stamdata/beroepen')).json()) as { rows: unknown[] };
    const dated = (await (await get('/api/v1/stamdata/beroepen?peildatum=1900-01-01')).json()) as { rows: unknown[] };
    expect(dated.rows).toEqual(plain.rows);
    expect(plain.rows.length).toBeGreaterThanOrEqual(10);
  });

  it('when the table is unknown, then a bare 404', async () => {
    const res = await get('/api/v1/stamdata/onbekend');
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('');
  });

  it('when beleidsvragen is read, then the language question is there with its type', async () => {
    const body = (await (await get('/api/v1/stamdata/beleidsvragen')).json()) as {
      rows: Array<{ id: string; type: string }>;
    };
    expect(body.rows.find((r) => r.id === 'taalvaardigheid')?.type).toBe('ja-nee');
  });
});

describe('stamdata served from memory (issue 11)', () => {
  it('when the tables are out of reach of the database, then reads still answer (they skip the database)', async () => {
    await sql`ALTER TABLE stamdata_row RENAME TO stamdata_row_away`.execute(h.context.db);
    try {
      expect(await codes('2020-01-01')).toContain('geneeskunde-uva');
      expect((await get('/api/v1/stamdata')).status).toBe(200);
    } finally {
      await sql`ALTER TABLE stamdata_row_away RENAME TO stamdata_row`.execute(h.context.db);
    }
  });

  it('when the client sends the ETag it has, then 304 without a body; another day gives another ETag', async () => {
    const first = await get('/api/v1/stamdata/opleidingen?peildatum=2020-01-01');
    const etag = first.headers.get('etag');
    expect(first.status).toBe(200);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');

    const again = await fetch(`${h.url}/api/v1/stamdata/opleidingen?peildatum=2020-01-01`, {
      headers: { ...admin, 'if-none-match': etag! },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');

    const other = await get('/api/v1/stamdata/opleidingen?peildatum=2010-01-01');
    expect(other.headers.get('etag')).not.toBe(etag);
  });
});
