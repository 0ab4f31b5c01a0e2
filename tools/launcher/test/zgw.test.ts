import { freePort } from '@register/embedded';
import { serviceEnv, resolveZgw, DEFAULT_PORTS } from '../src';

const infra = {
  postgresUrl: 'postgres://localhost:5432/postgres',
  natsUrl: 'nats://localhost:4222',
  s3: { endpoint: 'http://localhost:9000', accessKey: 'a', secretKey: 'b', bucket: 'documents' },
};

describe('npm start and the ZGW case system (ADR 0011)', () => {
  it(
    'when ZGW_ENABLED is unset, then no simulator starts and the ' +
      'applications service gets no ZGW settings (nothing changes)',
    async () => {
      const zgw = await resolveZgw({ PORT: '8080' }, 8080);
      expect(zgw.env).toEqual({});
      expect(zgw.embedded).toEqual([]);
      expect(
        serviceEnv('applications', { infra: { ...infra, zgw: zgw.env } }, DEFAULT_PORTS, 's'.repeat(32)),
      ).not.toHaveProperty('ZGW_ENABLED');
    },
  );

  it(
    'when ZGW_ENABLED=true and the URLs are given, then every ZGW_* setting and ' +
      'NOTIFICATIES_AUTH are passed to the applications service, and no simulator starts',
    async () => {
      const env = {
        ZGW_ENABLED: 'true',
        ZGW_ZAKEN_URL: 'https://oz.example.nl/zaken/api/v1',
        ZGW_CLIENT_ID: 'register',
        ZGW_TIMEOUT_MS: '5000',
        ZGW_SIM_PORT: '1',
        NOTIFICATIES_AUTH: 'Token x',
        OTHER: 'y',
      };
      const zgw = await resolveZgw(env, 8080);
      expect(zgw.env).toEqual({
        ZGW_ENABLED: 'true',
        ZGW_ZAKEN_URL: 'https://oz.example.nl/zaken/api/v1',
        ZGW_CLIENT_ID: 'register',
        ZGW_TIMEOUT_MS: '5000',
        NOTIFICATIES_AUTH: 'Token x',
      });
      expect(zgw.embedded).toEqual([]);
      const apps = serviceEnv('applications', { infra: { ...infra, zgw: zgw.env } }, DEFAULT_PORTS, 's'.repeat(32));
      expect(apps).toMatchObject(zgw.env);
      expect(
        serviceEnv('documents', { infra: { ...infra, zgw: zgw.env } }, DEFAULT_PORTS, 's'.repeat(32)),
      ).not.toHaveProperty('NOTIFICATIES_AUTH');
    },
  );

  it(
    'when ZGW_ENABLED=true without URLs, then the simulator starts as the embedded ' +
      'default and the applications service gets its URLs, a secret and its RSIN',
    async () => {
      const port = await freePort();
      const zgw = await resolveZgw(
        { ZGW_ENABLED: 'true', ZGW_SIM_PORT: String(port), NOTIFICATIES_AUTH: 'Token n' },
        8080,
      );
      try {
        const base = `http://127.0.0.1:${port}`;
        expect(zgw.env).toEqual({
          ZGW_ENABLED: 'true',
          ZGW_ZAKEN_URL: `${base}/zaken/api/v1`,
          ZGW_DOCUMENTEN_URL: `${base}/documenten/api/v1`,
          ZGW_CATALOGI_URL: `${base}/catalogi/api/v1`,
          ZGW_ZAAKTYPE_URL: expect.stringMatching(new RegExp(`^${base}/catalogi/api/v1/zaaktypen/[0-9a-f-]{36}$`)),
          ZGW_CLIENT_ID: 'register',
          ZGW_SECRET: expect.stringMatching(/^[0-9a-f]{64}$/),
          ZGW_RSIN: expect.stringMatching(/^\d{9}$/),
          NOTIFICATIES_AUTH: 'Token n',
        });
        expect((await fetch(`${base}/health`)).status).toBe(200);
        expect(zgw.embedded.join('\n')).toContain(base);
        await expect(resolveZgw({ ZGW_ENABLED: 'true', ZGW_SIM_PORT: String(port) }, 8080)).rejects.toThrow(
          /ZGW_SIM_PORT/,
        );
      } finally {
        await zgw.stop();
      }
      await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
    },
  );
});
