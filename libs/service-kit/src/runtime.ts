import type { Server } from 'node:http';

/** Listens on host:port and resolves with the port once it accepts connections. */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/** Above the gateway agent's 30 s idle time, so the gateway never reuses a socket the service just closed. */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
