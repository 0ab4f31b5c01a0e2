import http from 'node:http';
import { serve } from '@register/testkit';
import { cachedJson, cachedJsonText, sendCached } from '../src/cached-json';
import { registerApp } from '../src/http';

const value = { brief: { briefId: 'b1', comments: 'Zie "bijlage" \u2028 <b>' }, availablePassages: [1, 2, 3] };

/** The same value sent by `res.json` and, serialised once, by `sendCached`, on GET and on PUT. */
async function startApp() {
  const app = registerApp();
  const weak = cachedJsonText(JSON.stringify(value), 'weak');
  const strong = cachedJson(value);
  app.get('/json', (_req, res) => void res.json(value));
  app.put('/json', (_req, res) => void res.json(value));
  app.get('/weak', (req, res) => sendCached(req, res, weak, 'no-store'));
  app.put('/weak', (req, res) => sendCached(req, res, weak, 'no-store'));
  app.get('/strong', (req, res) => sendCached(req, res, strong, 'revalidate'));
  return serve(http.createServer(app));
}

/** A GET with only If-None-Match: status, ETag and body. */
function get(url: string, ifNoneMatch: string): Promise<{ status: number; etag: unknown; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'if-none-match': ifNoneMatch } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, etag: res.headers.etag, body }));
      })
      .on('error', reject);
  });
}

const pick = (res: Response) => ({
  status: res.status,
  etag: res.headers.get('etag'),
  type: res.headers.get('content-type'),
  length: res.headers.get('content-length'),
});

describe('a body serialised once (cachedJson, sendCached)', () => {
  it('when its ETag is weak, then a GET is answered as res.json answers it, 304 included', async () => {
    const app = await startApp();
    try {
      const [byJson, once] = await Promise.all([fetch(`${app.url}/json`), fetch(`${app.url}/weak`)]);
      expect(pick(once)).toEqual(pick(byJson));
      expect(await once.text()).toBe(await byJson.text());
      expect(once.headers.get('cache-control')).toBe('no-store');
      const etag = once.headers.get('etag')!;
      // Through node:http, as the gateway forwards it: If-None-Match without the Cache-Control fetch adds.
      for (const header of [etag, `"other", ${etag}`, etag.slice(2), '*', '"other"']) {
        const [again, asJson] = await Promise.all([get(`${app.url}/weak`, header), get(`${app.url}/json`, header)]);
        expect(again).toEqual(asJson);
        expect(again.status).toBe(header === '"other"' ? 200 : 304);
      }
    } finally {
      await app.close();
    }
  });

  it('when a PUT names the ETag, then it is answered 200 with the body, as res.json answers it', async () => {
    const app = await startApp();
    try {
      const etag = (await fetch(`${app.url}/weak`)).headers.get('etag')!;
      const put = await fetch(`${app.url}/weak`, { method: 'PUT', headers: { 'if-none-match': etag } });
      const asJson = await fetch(`${app.url}/json`, { method: 'PUT', headers: { 'if-none-match': etag } });
      expect(pick(put)).toEqual(pick(asJson));
      expect(put.status).toBe(200);
      expect(await put.json()).toEqual(value);
    } finally {
      await app.close();
    }
  });

  it('when its ETag is strong and it may be revalidated, then a fetch naming it gets 304', async () => {
    const app = await startApp();
    try {
      const res = await fetch(`${app.url}/strong`);
      expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      expect(res.headers.get('cache-control')).toBe('private, no-cache');
      expect(await res.json()).toEqual(value);
      // fetch adds Cache-Control: no-cache to a conditional request; an explicit If-None-Match is still answered.
      const again = await fetch(`${app.url}/strong`, { headers: { 'if-none-match': res.headers.get('etag')! } });
      expect([again.status, await again.text()]).toEqual([304, '']);
    } finally {
      await app.close();
    }
  });
});
