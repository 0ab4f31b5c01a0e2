import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { INTERNAL_IDENTITY_HEADER } from '@register/authz';

// The floor for any proxy written in Node, in a process of its own: a node:http server that pipes each request to
// one service through a node:http client with a keep-alive agent (the gateway's bound of 64 sockets), with a fixed
// signed identity, and pipes the answer back. No library, no timeouts, no headers of its own.
// Arguments: the service's URL and the signed internal identity. Sends its port to the parent.
const [target, signed] = process.argv.slice(2) as [string, string];
const upstream = new URL(target);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 64 });
const server = http.createServer((req, res) => {
  const headers = { ...req.headers, [INTERNAL_IDENTITY_HEADER]: signed };
  const out = http.request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  out.on('error', () => res.writeHead(502).end());
  req.pipe(out);
});
server.listen(0, '127.0.0.1', () => process.send?.((server.address() as AddressInfo).port));
process.on('disconnect', () => process.exit(0));
