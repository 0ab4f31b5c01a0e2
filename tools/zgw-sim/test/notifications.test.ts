import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ZgwSimulator } from '../src';
import { createZaak, startSim, statusBody, zgw } from './helpers/zgw-client';

interface Received {
  authorization: string | undefined;
  body: any;
}

// A webhook as the applications service exposes it (POST /api/v1/notificaties), answering 204.
async function startWebhook(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        authorization: req.headers.authorization,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
      res.statusCode = 204;
      res.end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/notificaties`, received };
}

describe('Open Notificaties-style messages', () => {
  let webhook: Awaited<ReturnType<typeof startWebhook>>;
  let sim: ZgwSimulator;
  beforeAll(async () => {
    webhook = await startWebhook();
    sim = await startSim({ notify: { url: webhook.url, authorization: 'Token webhook-secret' } });
  });
  afterAll(async () => {
    await sim.close();
    webhook.server.close();
  });

  it(
    'when a zaak and its status are created, then the webhook gets kanaal ' +
      '"zaken" messages for both, in order, with the configured Authorization',
    async () => {
      const delivered = new Promise<void>((resolve) => {
        const listener = () => {
          if (sim.state.notifications().length < 2) return;
          sim.state.events.off('notification', listener);
          resolve();
        };
        sim.state.events.on('notification', listener);
      });

      const zaak = await createZaak(sim);
      const status = await zgw('POST', `${sim.zakenUrl}/statussen`, statusBody(sim, zaak.url));
      await delivered;

      expect(webhook.received.map((message) => message.authorization)).toEqual([
        'Token webhook-secret',
        'Token webhook-secret',
      ]);
      const kenmerken = {
        bronorganisatie: sim.rsin,
        zaaktype: sim.zaaktypeUrl,
        vertrouwelijkheidaanduiding: 'vertrouwelijk',
      };
      expect(webhook.received.map((message) => message.body)).toEqual([
        {
          kanaal: 'zaken',
          hoofdObject: zaak.url,
          resource: 'zaak',
          resourceUrl: zaak.url,
          actie: 'create',
          aanmaakdatum: expect.any(String),
          kenmerken,
        },
        {
          kanaal: 'zaken',
          hoofdObject: zaak.url,
          resource: 'status',
          resourceUrl: status.body.url,
          actie: 'create',
          aanmaakdatum: expect.any(String),
          kenmerken,
        },
      ]);
      expect(Number.isNaN(Date.parse(webhook.received[0]?.body.aanmaakdatum))).toBe(false);
      expect(sim.state.counters()).toMatchObject({ notificationsDelivered: 2, notificationsFailed: 0 });
    },
  );

  it(
    'when the webhook cannot be reached, ' + 'then the ZGW call still succeeds and the failed delivery is counted',
    async () => {
      const unreachable = await startSim({
        notify: { url: 'http://127.0.0.1:1/api/v1/notificaties', authorization: 'Token x' },
      });
      try {
        const failed = once(unreachable.state.events, 'notification');

        const zaak = await createZaak(unreachable);
        const [entry] = await failed;

        expect(zaak.url).toBeDefined();
        expect(entry).toMatchObject({ outcome: 'failed', body: { resource: 'zaak' } });
        expect(unreachable.state.counters().notificationsFailed).toBe(1);
      } finally {
        await unreachable.close();
      }
    },
  );
});
