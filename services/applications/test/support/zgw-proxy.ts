import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
}

/** What the proxy answers instead of the simulator's answer (the simulator still handled the request). */
export interface Mangle {
  method: string;
  path: string;
  status: number;
  contentType: string;
  body: string;
}

/**
 * A pass-through in front of the ZGW simulator that records every request's headers (the simulator's log
 * keeps the JWT claims but not the headers) and can replace the next matching answer with another one:
 * a body that is not the JSON the mirror expects. A cut upstream connection cuts the client's, and a client
 * that goes away before its answer (a timeout) cuts the upstream one, as if it had called the simulator itself.
 */
export async function zgwProxy(): Promise<{
  url: string;
  target(url: string): void;
  seen: SeenRequest[];
  mangleNext(m: Mangle): void;
  close(): Promise<void>;
}> {
  let target = '';
  const seen: SeenRequest[] = [];
  const mangles: Mangle[] = [];
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    seen.push({ method: req.method ?? '', path, headers: req.headers });
    const mangleAt = mangles.findIndex((m) => m.method === req.method && path.split('?')[0] === m.path);
    const mangle = mangleAt >= 0 ? mangles.splice(mangleAt, 1)[0] : undefined;
    const upstream = http.request(
      new URL(path, target),
      { method: req.method, headers: req.headers, agent: false },
      (answer) => {
        if (mangle) {
          answer.resume();
          answer.on('end', () => res.writeHead(mangle.status, { 'content-type': mangle.contentType }).end(mangle.body));
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    target: (t) => void (target = t),
    seen,
    mangleNext: (m) => void mangles.push(m),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
