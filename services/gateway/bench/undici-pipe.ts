import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { INTERNAL_IDENTITY_HEADER } from '@register/authz';

// The alternative proxy core (issue 26 §2), in a process of its own: a node:http server that hands each request to
// an undici pool in front of one service (the gateway's bound of 64 connections, keep-alive), with a fixed signed
// identity, and writes the answer back as undici delivers it. No library of ours, no timeouts, no headers of its own:
// node-pipe.ts with undici's client in place of node:http's.
// Arguments: the service's URL and the signed internal identity. Sends its port to the parent.
const [target, signed] = process.argv.slice(2) as [string, string];
const pool = new Pool(target, { connections: 64, pipelining: 1 });
const server = http.createServer((req, res) => {
  // undici sets Host and Connection itself and refuses both from the caller.
  const { host: _host, connection: _connection, ...forwarded } = req.headers;
  const headers = { ...forwarded, [INTERNAL_IDENTITY_HEADER]: signed };
  const body = req.method === 'GET' || req.method === 'HEAD' ? null : req;
  pool.dispatch(
    { method: req.method ?? 'GET', path: req.url ?? '/', headers, body },
    {
      onRequestStart: () => undefined,
      onResponseStart: (_controller, status, answerHeaders) => void res.writeHead(status, answerHeaders),
      onResponseData: (_controller, chunk) => void res.write(chunk),
      onResponseEnd: () => void res.end(),
      onResponseError: () => {
        if (res.headersSent) res.destroy();
        else res.writeHead(502).end();
      },
    },
  );
});
server.listen(0, '127.0.0.1', () => process.send?.((server.address() as AddressInfo).port));
process.on('disconnect', () => process.exit(0));
