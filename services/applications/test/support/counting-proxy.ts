import http from 'node:http';
import { serve } from '@register/testkit';

/**
 * A plain pass-through in front of a neighbour that counts the requests matching `counts`, so a test can see
 * how often the applications service asked. When the neighbour is down the client's connection is cut, as
 * the neighbour's own would be.
 */
export async function countingProxy(
  target: string,
  counts: (req: http.IncomingMessage) => boolean,
): Promise<{ url: string; count(): number; close(): Promise<void> }> {
  let n = 0;
  const server = http.createServer((req, res) => {
    if (counts(req)) n += 1;
    const upstream = http.request(
      new URL(req.url ?? '/', target),
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  const served = await serve(server);
  return { url: served.url, count: () => n, close: served.close };
}
