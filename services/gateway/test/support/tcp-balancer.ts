import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * What a Kubernetes Service is to the pods behind it, for service-to-service calls in a test: a TCP port
 * that spreads connections over the copies given (round robin), passing over a copy that refuses.
 * Its URL exists before the copies start, so copies that call each other can be given it.
 */
export interface TcpBalancer {
  url: string;
  backends: string[];
  close(): Promise<void>;
}

export async function startTcpBalancer(): Promise<TcpBalancer> {
  const backends: string[] = [];
  let turn = 0;
  const sockets = new Set<net.Socket>();
  const connect = (client: net.Socket, tries: number) => {
    if (backends.length === 0 || tries === 0) return client.destroy();
    const target = new URL(backends[turn++ % backends.length]!);
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(upstream);
    upstream.once('close', () => sockets.delete(upstream));
    let connected = false;
    upstream.once('error', () => {
      // Refused (the copy is down): the next copy; nothing of the client's has been sent yet.
      if (!connected) return connect(client, tries - 1);
      client.destroy();
    });
    upstream.once('connect', () => {
      connected = true;
      client.pipe(upstream).pipe(client);
      client.once('error', () => upstream.destroy());
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
      client.resume();
    });
  };
  const server = net.createServer({ pauseOnConnect: true }, (client) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    connect(client, backends.length);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    backends,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
