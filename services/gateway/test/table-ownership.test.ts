import path from 'node:path';
import { databaseTables, ownershipViolations, sourcesOf, unseenTables, type Ownership } from '@register/testkit';

/** Which feature of the gateway service writes which table (ADR 0253): any other calls its owner's function. */
const TABLE_OWNERS: Record<string, Ownership> = {
  idempotency_record: { owners: ['idempotency/'] },
  // The kit's: written only through its enqueue, published and deleted by its relay.
  outbox: { owners: [] },
};

const SRC = path.join(__dirname, '..', 'src');

describe('table ownership (ADR 0253)', () => {
  it('when the database has a table, then TABLE_OWNERS names its owner, and names no table the database lacks', () => {
    const tables = databaseTables(path.join(SRC, 'database.ts'), 'GatewayDb');
    expect(Object.keys(TABLE_OWNERS).sort()).toEqual([...tables].sort());
  });

  it('when src/ is read, then no part of it writes a table another feature or the kit owns', () => {
    expect(ownershipViolations(sourcesOf(SRC), TABLE_OWNERS)).toEqual([]);
  });

  it('when src/ is read, then every table but the outbox is seen written by its owners (the scan is not blind)', () => {
    expect(unseenTables(sourcesOf(SRC), TABLE_OWNERS)).toEqual([]);
  });
});
