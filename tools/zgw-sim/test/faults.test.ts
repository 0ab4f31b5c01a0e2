import type { ZgwSimulator } from '../src';
import { expectContract } from './helpers/contract';
import { startSim, zaakBody, zgw, zgwToken } from './helpers/zgw-client';

const NO_RESPONSE = ['ECONNRESET', 'ECONNREFUSED', 'UND_ERR_SOCKET'];

/** What `fetch` rejected with: the network error code sits in `cause.code`. */
async function networkFailure(call: Promise<unknown>): Promise<{ name: string; code: string | undefined }> {
  try {
    await call;
  } catch (err) {
    const error = err as Error & { cause?: { code?: string } };
    return { name: error.name, code: error.cause?.code };
  }
  throw new Error('the call got an HTTP response');
}

/** Resolves once `condition` holds, checked every 10 ms (the test's timeout ends a wait that never does). */
async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('fault injection', () => {
  let sim: ZgwSimulator;
  beforeAll(async () => {
    sim = await startSim();
  });
  afterEach(() => {
    sim.faults.clear();
  });
  afterAll(async () => {
    await sim.close();
  });

  it(
    'when "refuse" is set for the next POST /zaken, then fetch fails without ' +
      'an HTTP response, nothing is created, and the call after it succeeds',
    async () => {
      sim.faults.add({ path: '/zaken/api/v1/zaken', method: 'POST', mode: 'refuse', count: 1 });
      const body = zaakBody(sim);

      const failure = await networkFailure(zgw('POST', `${sim.zakenUrl}/zaken`, body));
      const retry = await zgw('POST', `${sim.zakenUrl}/zaken`, body);

      expect(NO_RESPONSE).toContain(failure.code);
      expect(retry.status).toBe(201);
      expect(sim.state.zakenWithIdentificatie(String(body['identificatie']))).toHaveLength(1);
      expect(sim.state.requests().filter((entry) => entry.status === 'refused')).toHaveLength(1);
    },
  );

  it(
    'when "reset" is set, then the zaak is created but the answer is lost; ' +
      'a blind retry gets identificatie-niet-uniek and a lookup finds it',
    async () => {
      sim.faults.add({ path: '/zaken/api/v1/zaken', method: 'POST', mode: 'reset', count: 1 });
      const body = zaakBody(sim);

      const failure = await networkFailure(zgw('POST', `${sim.zakenUrl}/zaken`, body));
      const retry = await zgw('POST', `${sim.zakenUrl}/zaken`, body);
      const lookup = await zgw(
        'GET',
        `${sim.zakenUrl}/zaken?identificatie=${String(body['identificatie'])}&bronorganisatie=${sim.rsin}`,
      );

      expect(NO_RESPONSE).toContain(failure.code);
      expect(retry.body.invalidParams).toEqual([expect.objectContaining({ code: 'identificatie-niet-uniek' })]);
      expect(lookup.body.count).toBe(1);
      expect(sim.state.requests().find((entry) => entry.status === 'reset')).toMatchObject({
        operationId: 'zaak_create',
        lostStatus: 201,
      });
    },
  );

  it(
    'when "status" 500 is set for the next 2 calls, ' +
      "then two 500s in Open Zaak's format change nothing and the third call succeeds",
    async () => {
      sim.faults.add({ path: '/zaken/api/v1/*', mode: 'status', status: 500, count: 2 });
      const body = zaakBody(sim);

      const first = await zgw('POST', `${sim.zakenUrl}/zaken`, body);
      const second = await zgw('POST', `${sim.zakenUrl}/zaken`, body);
      const third = await zgw('POST', `${sim.zakenUrl}/zaken`, body);

      await expectContract('zaken', 'zaak_create', first, 500);
      await expectContract('zaken', 'zaak_create', second, 500);
      expect(first.body).toMatchObject({ code: 'error', title: 'Er is een serverfout opgetreden.' });
      expect(third.status).toBe(201);
      expect(sim.state.zakenWithIdentificatie(String(body['identificatie']))).toHaveLength(1);
    },
  );

  it('when a fault is limited to POST, then reads pass', async () => {
    sim.faults.add({ path: '*', method: 'POST', mode: 'status', status: 503 });

    const read = await zgw('GET', `${sim.zakenUrl}/zaken`);
    const write = await zgw('POST', `${sim.zakenUrl}/zaken`, zaakBody(sim));

    expect([read.status, write.status]).toEqual([200, 503]);
  });

  it('when "delay" is set, then the answer comes after the delay', async () => {
    sim.faults.add({ path: '/catalogi/api/v1/catalogussen', mode: 'delay', delayMs: 300, count: 1 });
    const started = performance.now();

    const response = await zgw('GET', `${sim.catalogiUrl}/catalogussen`);

    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it(
    'when "hold" is set, then the call waits until it is released and is handled then; ' + 'others pass meanwhile',
    async () => {
      const fault = sim.faults.add({ path: '/zaken/api/v1/zaken', method: 'POST', mode: 'hold', count: 1 });
      const body = zaakBody(sim);
      let answered = false;
      const create = zgw('POST', `${sim.zakenUrl}/zaken`, body).then((r) => ((answered = true), r));

      const [held] = await sim.faults.waitForHeld(fault.id);
      const read = await zgw('GET', `${sim.zakenUrl}/zaken`);
      expect(held).toMatchObject({ method: 'POST', path: '/zaken/api/v1/zaken', clientGone: false });
      expect(read.status).toBe(200);
      expect(answered).toBe(false);
      expect(sim.state.zakenWithIdentificatie(String(body['identificatie']))).toHaveLength(0);

      expect(sim.faults.release(fault.id)).toBe(1);
      expect((await create).status).toBe(201);
      expect(sim.state.zakenWithIdentificatie(String(body['identificatie']))).toHaveLength(1);
      expect(sim.faults.held()).toEqual([]);
    },
  );

  it(
    'when the client gives up on a held call, ' +
      'then the held request shows it and the zaak is still created once released',
    async () => {
      const fault = sim.faults.add({ path: '/zaken/api/v1/zaken', method: 'POST', mode: 'hold', count: 1 });
      const body = zaakBody(sim);
      const headers = {
        Authorization: `Bearer ${await zgwToken()}`,
        'Content-Type': 'application/json',
        'Content-Crs': 'EPSG:4326',
        'Accept-Crs': 'EPSG:4326',
      };
      const giveUp = new AbortController();
      const call = networkFailure(
        fetch(`${sim.zakenUrl}/zaken`, {
          method: 'POST',
          headers,
          body: JSON.stringify(body),
          signal: giveUp.signal,
        }),
      );

      await sim.faults.waitForHeld(fault.id);
      giveUp.abort();
      const failure = await call;
      await waitFor(() => sim.faults.held(fault.id)[0]?.clientGone === true);
      sim.faults.release(fault.id);
      const handled = await sim.state.waitForRequest((entry) => entry.faultId === fault.id);

      expect(failure.name).toBe('AbortError');
      expect(handled.status).toBe(201);
      expect(sim.state.zakenWithIdentificatie(String(body['identificatie']))).toHaveLength(1);
    },
  );

  it('when the faults are cleared, then every held call goes on', async () => {
    const fault = sim.faults.add({ path: '/catalogi/api/v1/*', mode: 'hold' });
    const reads = [zgw('GET', `${sim.catalogiUrl}/catalogussen`), zgw('GET', `${sim.catalogiUrl}/zaaktypen`)];

    await sim.faults.waitForHeld(fault.id, 2);
    sim.faults.clear();

    expect((await Promise.all(reads)).map((r) => r.status)).toEqual([200, 200]);
    expect(sim.faults.held()).toEqual([]);
  });

  it(
    'when connections are refused for a while, then fetch fails ' +
      'with ECONNREFUSED and works again on the same URL once listening',
    async () => {
      await sim.faults.refuseConnections(200);

      const failure = await networkFailure(zgw('GET', `${sim.catalogiUrl}/catalogussen`));
      await sim.faults.listening();
      const after = await zgw('GET', `${sim.catalogiUrl}/catalogussen`);

      expect(failure.code).toBe('ECONNREFUSED');
      expect(after.status).toBe(200);
    },
  );
});

describe('the fault API over HTTP (/_sim/faults)', () => {
  let sim: ZgwSimulator;
  beforeAll(async () => {
    sim = await startSim();
  });
  afterAll(async () => {
    await sim.close();
  });

  const admin = (method: string, path: string, body?: unknown) =>
    fetch(`${sim.url}/_sim${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
    });

  it('when a fault is posted, then it is listed, applied, and gone once removed', async () => {
    const created = await admin('POST', '/faults', {
      path: '/zaken/api/v1/zaken',
      method: 'GET',
      mode: 'status',
      status: 502,
    });
    const fault = (await created.json()) as any;

    const listed = (await (await admin('GET', '/faults')).json()) as any;
    const faulted = await zgw('GET', `${sim.zakenUrl}/zaken`);
    const removed = await admin('DELETE', `/faults/${fault.id}`);
    const after = await zgw('GET', `${sim.zakenUrl}/zaken`);

    expect(created.status).toBe(201);
    expect(listed).toEqual([expect.objectContaining({ id: fault.id, mode: 'status', status: 502 })]);
    expect(faulted.status).toBe(502);
    expect(removed.status).toBe(204);
    expect(after.status).toBe(200);
  });

  it(
    'when a hold fault holds a call, ' + 'then GET /_sim/held lists it and POST /_sim/faults/{id}/release lets it go',
    async () => {
      const created = await admin('POST', '/faults', { path: '/zaken/api/v1/zaken', method: 'GET', mode: 'hold' });
      const fault = (await created.json()) as { id: string };
      const read = zgw('GET', `${sim.zakenUrl}/zaken`);
      await sim.faults.waitForHeld(fault.id);

      const held = (await (await admin('GET', '/held')).json()) as unknown[];
      const released = await admin('POST', `/faults/${fault.id}/release`);
      const unknown = await admin('POST', '/faults/8f6c0a4e-1d2b-4c3d-9e8f-0a1b2c3d4e5f/release');

      expect(created.status).toBe(201);
      expect(held).toEqual([
        expect.objectContaining({ faultId: fault.id, method: 'GET', path: '/zaken/api/v1/zaken', clientGone: false }),
      ]);
      expect([released.status, await released.json()]).toEqual([200, { released: 1 }]);
      expect((await read).status).toBe(200);
      expect(unknown.status).toBe(404);
      await admin('DELETE', '/faults');
    },
  );

  it('when a fault is invalid, then 400 and nothing is added', async () => {
    const response = await admin('POST', '/faults', { path: '*', mode: 'delay' });

    expect(response.status).toBe(400);
    expect(((await response.json()) as any).detail).toContain('delayMs');
    expect(await (await admin('GET', '/faults')).json()).toEqual([]);
  });

  it('when DELETE /_sim/faults, then every fault is gone', async () => {
    await admin('POST', '/faults', { path: '*', mode: 'status', status: 500 });

    const cleared = await admin('DELETE', '/faults');
    const after = await zgw('GET', `${sim.zakenUrl}/zaken`);

    expect(cleared.status).toBe(204);
    expect(after.status).toBe(200);
  });

  it('when refuse-connections is posted, then it is answered and the port refuses until it listens again', async () => {
    const response = await admin('POST', '/refuse-connections', { forMs: 200 });
    await response.json();

    const failure = await networkFailure(fetch(`${sim.url}/_sim/faults`));
    await sim.faults.listening();

    expect(response.status).toBe(202);
    expect(failure.code).toBe('ECONNREFUSED');
    expect((await admin('GET', '/faults')).status).toBe(200);
  });
});
