import type { ZgwSimulator } from '../src';
import { expectContract } from './helpers/contract';
import { CLIENT_ID, jose, SECRET, startSim, zgw, zgwToken } from './helpers/zgw-client';

const now = () => Math.floor(Date.now() / 1000);

// Open Zaak's answers to a bad or missing ZGW JWT: always 403 PermissionDenied, the code says why.
describe('the ZGW JWT on every call', () => {
  let sim: ZgwSimulator;
  beforeAll(async () => {
    sim = await startSim();
  });
  afterAll(async () => {
    await sim.close();
  });

  const refused: Array<[string, string, () => Promise<string | null>]> = [
    ['no Authorization header', 'permission_denied', async () => null],
    ['another scheme than Bearer', 'permission_denied', async () => `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['a token that is no JWT', 'jwt-decode-error', async () => 'Bearer not-a-jwt'],
    [
      'no client_id claim',
      'missing-client-identifier',
      async () => `Bearer ${await zgwToken({ client_id: undefined })}`,
    ],
    [
      'a client_id the simulator does not know',
      'invalid-client-identifier',
      async () => `Bearer ${await zgwToken({ client_id: 'someone-else' })}`,
    ],
    [
      'a token signed with another secret',
      'invalid-jwt-signature',
      async () => `Bearer ${await zgwToken({}, { secret: 'another-secret-of-some-length' })}`,
    ],
    [
      'HS512 instead of HS256',
      'jwt-invalidalgorithmerror',
      async () => `Bearer ${await zgwToken({}, { alg: 'HS512' })}`,
    ],
    ['no iat claim', 'jwt-missing-iat-claim', async () => `Bearer ${await zgwToken({}, { iat: null })}`],
    [
      'an iat more than an hour ago (JWT_EXPIRY)',
      'jwt-expired',
      async () => `Bearer ${await zgwToken({}, { iat: now() - 3601 })}`,
    ],
    [
      'an iat in the future (JWT_LEEWAY 0)',
      'jwt-immaturesignatureerror',
      async () => `Bearer ${await zgwToken({}, { iat: now() + 60 })}`,
    ],
    [
      'an exp in the past',
      'jwt-expiredsignatureerror',
      async () =>
        `Bearer ${await new (await jose).SignJWT({ client_id: CLIENT_ID })
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuedAt(now() - 120)
          .setExpirationTime(now() - 60)
          .sign(new TextEncoder().encode(SECRET))}`,
    ],
  ];

  it.each(refused)('when the call carries %s, then 403 with code %s', async (_case, code, authorization) => {
    const response = await zgw('GET', `${sim.zakenUrl}/zaken`, undefined, { authorization: await authorization() });

    await expectContract('zaken', 'zaak_list', response, 403);
    expect(response.body).toMatchObject({
      status: 403,
      code,
      title: 'U heeft geen toestemming om deze actie uit te voeren.',
    });
    expect(response.body.type).toBe(`${sim.url}/ref/fouten/PermissionDenied/`);
  });

  it('when the token is refused, then nothing is created and the log shows the call without claims', async () => {
    const before = sim.state.counters().current.zaken;

    const response = await zgw(
      'POST',
      `${sim.zakenUrl}/zaken`,
      {},
      { authorization: `Bearer ${await zgwToken({}, { secret: 'wrong-secret-of-some-length' })}` },
    );

    expect(response.status).toBe(403);
    expect(sim.state.counters().current.zaken).toBe(before);
    expect(sim.state.requests().at(-1)).toEqual(expect.not.objectContaining({ claims: expect.anything() }));
  });

  it('when the iat is 59 minutes old, then the call is accepted and the log holds the verified claims', async () => {
    const iat = now() - 59 * 60;

    const response = await zgw('GET', `${sim.zakenUrl}/zaken`, undefined, {
      authorization: `Bearer ${await zgwToken({ user_id: 'behandelaar-7' }, { iat })}`,
    });

    expect(response.status).toBe(200);
    expect(sim.state.requests().at(-1)).toMatchObject({
      method: 'GET',
      status: 200,
      operationId: 'zaak_list',
      claims: { client_id: CLIENT_ID, iss: CLIENT_ID, iat, user_id: 'behandelaar-7' },
    });
  });

  it('when no clientId is configured, then any client_id signed with the secret is accepted', async () => {
    const open = await startSim({ clientId: undefined });
    try {
      const response = await zgw('GET', `${open.catalogiUrl}/catalogussen`, undefined, {
        authorization: `Bearer ${await zgwToken({ client_id: 'any-client' })}`,
      });

      expect(response.status).toBe(200);
    } finally {
      await open.close();
    }
  });

  it('when a leeway is configured, then an iat that much in the future is accepted', async () => {
    const lenient = await startSim({ jwtLeewaySeconds: 120 });
    try {
      const response = await zgw('GET', `${lenient.catalogiUrl}/catalogussen`, undefined, {
        authorization: `Bearer ${await zgwToken({}, { iat: now() + 60 })}`,
      });

      expect(response.status).toBe(200);
    } finally {
      await lenient.close();
    }
  });
});
