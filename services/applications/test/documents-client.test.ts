import { DomainError } from '@register/problem';
import { InternalClient } from '@register/service-kit';
import { TEST_SECRET } from '@register/testkit';
import { CATEGORIES_TTL_MS, DocumentsClient } from '../src/adapters/documents-client';
import { countingProxy } from './support/counting-proxy';
import { startDocuments, type DocumentsNeighbour } from './support/neighbours';

/**
 * The category cache (ADR 0060), against the real documents
 * service (its own process, which can be stopped) behind a pass-through that counts the category requests.
 */
let documents: DocumentsNeighbour;
let front: Awaited<ReturnType<typeof countingProxy>>;

beforeAll(async () => {
  documents = await startDocuments();
  front = await countingProxy(documents.url, (req) => req.url?.startsWith('/internal/uploads/categories') ?? false);
});
afterAll(async () => {
  await front.close();
  await documents.close();
});

const categoryRequests = () => front.count();

function documentsClient() {
  let now = 1_000_000;
  const client = new DocumentsClient(
    new InternalClient({ baseUrl: front.url, secret: TEST_SECRET, caller: 'applications', timeoutMs: 2000 }),
    { now: () => now },
  );
  return { client, advance: (ms: number) => (now += ms) };
}

const required = (list: Array<{ categoryId: string; required: boolean }>) =>
  list.filter((c) => c.required).map((c) => c.categoryId);

describe('DocumentsClient.categories', () => {
  it('when asked again within the TTL, then the documents service is asked once per distinct query', async () => {
    const { client } = documentsClient();
    const before = categoryRequests();
    const [a, b] = await Promise.all([
      client.categories('intake', { diplomaHerkomst: 'handmatig' }),
      client.categories('intake', { diplomaHerkomst: 'handmatig' }),
    ]);
    const c = await client.categories('intake', { diplomaHerkomst: 'handmatig' });
    expect(categoryRequests() - before).toBe(1);
    expect(required(a)).toEqual(['diploma']);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    // Other answers are another query with their own `required`.
    expect(required(await client.categories('intake', { diplomaHerkomst: 'digitaal' }))).toEqual([]);
    expect(required(await client.categories('herregistratie', {}))).toEqual(['werkervaring']);
    expect(categoryRequests() - before).toBe(3);
  });

  it('when the TTL has passed, then the documents service is asked again', async () => {
    const { client, advance } = documentsClient();
    const before = categoryRequests();
    await client.categories('intake', { diplomaHerkomst: 'handmatig' });
    advance(CATEGORIES_TTL_MS - 1);
    await client.categories('intake', { diplomaHerkomst: 'handmatig' });
    expect(categoryRequests() - before).toBe(1);
    advance(1);
    await client.categories('intake', { diplomaHerkomst: 'handmatig' });
    expect(categoryRequests() - before).toBe(2);
  });

  it(
    'when a caller changes the list it got, ' + 'then the cached answer stays as the documents service gave it',
    async () => {
      const { client } = documentsClient();
      const first = await client.categories('intake', { diplomaHerkomst: 'handmatig' });
      first.pop();
      expect((await client.categories('intake', { diplomaHerkomst: 'handmatig' })).map((c) => c.categoryId)).toEqual([
        'diploma',
        'taalvaardigheid',
        'overig',
      ]);
    },
  );

  it('when the documents service is down after the TTL, then unavailable, and a failure is never cached', async () => {
    const { client, advance } = documentsClient();
    await client.categories('herregistratie', {});
    await documents.stop();
    try {
      // Within the TTL the cached answer serves; past it the documents service must answer again.
      expect(required(await client.categories('herregistratie', {}))).toEqual(['werkervaring']);
      advance(CATEGORIES_TTL_MS);
      const failed = await client.categories('herregistratie', {}).catch((err: unknown) => err);
      expect(failed).toBeInstanceOf(DomainError);
      expect((failed as DomainError).code).toBe('unavailable');
    } finally {
      await documents.start();
    }
    const before = categoryRequests();
    expect(required(await client.categories('herregistratie', {}))).toEqual(['werkervaring']);
    expect(categoryRequests() - before).toBe(1);
  });

  it('when the cache is off (TTL 0), then every call asks the documents service', async () => {
    const client = new DocumentsClient(
      new InternalClient({ baseUrl: front.url, secret: TEST_SECRET, caller: 'applications', timeoutMs: 2000 }),
      { categoriesTtlMs: 0 },
    );
    const before = categoryRequests();
    await client.categories('intake', { diplomaHerkomst: 'digitaal' });
    await client.categories('intake', { diplomaHerkomst: 'digitaal' });
    expect(categoryRequests() - before).toBe(2);
  });
});
