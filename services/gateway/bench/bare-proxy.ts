import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { INTERNAL_IDENTITY_HEADER } from '@register/authz';

// The gateway bench's yardstick, in a process of its own: http-proxy-middleware on a bare node:http server in front
// of one service, with the same keep-alive bound and a fixed signed identity, and nothing else (no identity,
// authorization, correlation, trace, log line or metric). What any proxy in Node costs on this machine.
// Arguments: the service's URL and the signed internal identity. Sends its port to the parent.
const [target, signed] = process.argv.slice(2) as [string, string];
const agent = new http.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 64 });
const proxy = createProxyMiddleware({ target, agent, changeOrigin: true, ejectPlugins: true });
const server = http.createServer((req, res) => {
  req.headers[INTERNAL_IDENTITY_HEADER] = signed;
  void proxy(req, res, () => res.writeHead(404).end());
});
server.listen(0, '127.0.0.1', () => process.send?.((server.address() as AddressInfo).port));
process.on('disconnect', () => process.exit(0));
