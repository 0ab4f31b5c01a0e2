import { createTestDatabase, type TestDatabase } from '@register/testkit';
import { seedPassages, listPassageVersions } from '../src/passages/passages.repository';
import { PASSAGES_SEED } from '../src/passages/passages.seed';
import { startLettersSystem } from './support/system';

// The shipped passage library is versioned (ADR 0010, issue 9 item 3): a passage starts at version 1, a
// changed shipped text becomes the next version at the next start, and an unchanged one stays as it is, however
// often the service starts on its database. Blocks keep pointing at the version they came from.
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase('letters');
});
afterAll(async () => database?.drop());

const shared = () => ({ url: database.url, drop: async () => undefined });
const versions = (rows: Array<{ passageId: string | null; version: number }>) =>
  rows.map((p) => `${p.passageId}@${p.version}`).sort();

describe('the shipped passage library', () => {
  it('when the service starts again on its database, then every passage is still at version 1', async () => {
    for (let start = 1; start <= 2; start++) {
      const letters = await startLettersSystem({ database: shared() });
      await letters.close();
    }
    const again = await startLettersSystem({ database: shared() });
    try {
      const rows = await listPassageVersions(again.db);
      expect(rows.length).toBe(PASSAGES_SEED.length);
      expect(versions(rows)).toEqual(versions(PASSAGES_SEED.map((p) => ({ passageId: p.passageId, version: 1 }))));
      expect(again.context.passages.availableFor('arts').every((p) => p.version === 1)).toBe(true);
    } finally {
      await again.close();
    }
  });

  it(
    'when one shipped text changes, then that passage gets version 2 beside version ' + '1 and the others stay',
    async () => {
      const letters = await startLettersSystem();
      try {
        const changed = PASSAGES_SEED.map((p) =>
          p.passageId === 'afsluiting-vragen' ? { ...p, label: `${p.label} (herzien)` } : p,
        );
        await seedPassages(letters.db, changed);
        await seedPassages(letters.db, changed);
        const rows = await listPassageVersions(letters.db);
        expect(rows.filter((p) => p.passageId === 'afsluiting-vragen').map((p) => [p.version, p.label])).toEqual([
          [1, 'Afsluiting met contactgegevens'],
          [2, 'Afsluiting met contactgegevens (herzien)'],
        ]);
        expect(rows.filter((p) => p.version > 1).map((p) => p.passageId)).toEqual(['afsluiting-vragen']);
      } finally {
        await letters.close();
      }
    },
  );
});
