import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { writeEventsAddress } from '@register/embedded';
import { DEAD_LETTER_PREFIX, connectEvents, createLogger } from '@register/service-kit';
import { natsUrl, testEvents } from '@register/testkit';

// The built CLI as `npm run dead-letters` runs it, in an environment of the test's making only.
const cli = path.resolve(__dirname, '..', 'dist', 'main.js');

function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [cli, ...args], {
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], ...env },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err })));
}

let dataDir: string;
let nc: NatsConnection;
let jsm: JetStreamManager;
beforeAll(async () => {
  nc = await connect({ servers: natsUrl(), name: 'dead-letters-cli-test' });
  jsm = await jetstreamManager(nc);
});
beforeEach(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'register-dead-letters-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));
afterAll(async () => nc.close());

describe('npm run dead-letters: which NATS it asks', () => {
  it('when npm start wrote where its events go, then list and replay use that NATS and stream', async () => {
    const { stream, prefix } = testEvents();
    const events = await connectEvents(natsUrl(), 'dead-letters-cli-test', createLogger('t', 'silent'), {
      name: stream,
      prefix,
    });
    const durable = `cli-${randomUUID().slice(0, 8)}`;
    const letter = { durable, subject: 'register.test.x', event: '{}', error: 'boom', deliveries: 3, failedAt: 'now' };
    await events.js.publish(`${prefix}${DEAD_LETTER_PREFIX}.${durable}`, JSON.stringify(letter));
    const plain = await events.js.publish(`${prefix}register.test.plain`, '{}');
    await events.close();
    writeEventsAddress(dataDir, { natsUrl: natsUrl(), stream, subjectPrefix: prefix });

    const { code, out } = await run(['list', durable], { DATA_DIR: dataDir });
    expect(code).toBe(0);
    expect(out).toContain(`${durable}\tregister.test.x\tdeliveries=3\tboom`);
    expect(out).toContain('1 dead letter(s)');

    const seq = out.split('\t')[0]!;
    const replayed = await run(['replay', seq], { DATA_DIR: dataDir });
    expect(replayed).toMatchObject({ code: 0, out: `replayed ${seq} to register.test.x (consumer ${durable})\n` });
    const wrong = await run(['replay', String(plain.seq)], { DATA_DIR: dataDir });
    expect(wrong).toMatchObject({ code: 1, err: `stream sequence ${plain.seq} is not a dead letter\n` });
  });

  it('when no npm start is running and NATS_URL is not set, then it says so and exits 1', async () => {
    const { code, err } = await run(['list'], { DATA_DIR: dataDir });
    expect(code).toBe(1);
    expect(err).toContain('No system to ask: NATS_URL is not set');
    expect(err).toContain(path.join(dataDir, 'events.json'));
  });

  it('when npm start runs in single-process mode, then it says there is no NATS to ask and exits 1', async () => {
    writeEventsAddress(dataDir, { natsUrl: 'in-process', stream: 'REGISTER', subjectPrefix: '' });
    const { code, err } = await run(['list'], { DATA_DIR: dataDir });
    expect(code).toBe(1);
    expect(err).toContain('single-process mode');
    expect(err).toContain('no dead letters to list or replay');
  });

  it(
    'when the NATS has no such stream (not the project’s server), ' + 'then it refuses and creates nothing there',
    async () => {
      const stream = `NOPE_${randomUUID().slice(0, 8)}`;
      const { code, err } = await run(['list'], { NATS_URL: natsUrl(), EVENTS_STREAM: stream });
      expect(code).toBe(1);
      expect(err).toContain(`has no stream ${stream}: it is not the register's event server`);
      await expect(jsm.streams.info(stream)).rejects.toThrow(/not found/i);
    },
  );

  it('when the stream holds other subjects than the register’s, then it refuses and names them', async () => {
    const stream = `OTHER_${randomUUID().slice(0, 8)}`;
    await jsm.streams.add({ name: stream, subjects: [`other.${stream}.>`] });
    try {
      const { code, err } = await run(['list'], { NATS_URL: natsUrl(), EVENTS_STREAM: stream });
      expect(code).toBe(1);
      expect(err).toContain(`holds ["other.${stream}.>"], not ["register.>"]`);
    } finally {
      await jsm.streams.delete(stream);
    }
  });

  it(
    'when the server accepts connections but never answers, ' + 'then it gives up with a message instead of hanging',
    async () => {
      const silent = net.createServer(() => undefined);
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const { port } = silent.address() as net.AddressInfo;
      try {
        const { code, err } = await run(['list'], { NATS_URL: `nats://127.0.0.1:${port}` });
        expect(code).toBe(1);
        expect(err).toContain(`Cannot reach NATS at nats://127.0.0.1:${port} (from NATS_URL): no answer within 5 s`);
      } finally {
        silent.close();
      }
    },
  );

  it('when replay is given something that is not a stream sequence, then it says so before connecting', async () => {
    const { code, err } = await run(['replay', 'abc'], { DATA_DIR: dataDir });
    expect(code).toBe(1);
    expect(err).toContain('replay takes stream sequences');
  });
});
