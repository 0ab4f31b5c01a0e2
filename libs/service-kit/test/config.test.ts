import { z } from 'zod';
import { ConfigError, baseConfigSchema, loadConfig } from '../src/config';

const schema = baseConfigSchema.extend({ OIDC_ISSUER: z.url().optional(), CORS_ORIGINS: z.string().default('') });
const required = {
  PORT: '8080',
  DATABASE_URL: 'postgres://db/x',
  NATS_URL: 'nats://n:4222',
  INTERNAL_IDENTITY_SECRET: 'x'.repeat(32),
};

describe('loadConfig', () => {
  it(
    'when a variable is set to the empty string (compose ${NAME:-}), ' +
      'then it counts as unset: optional stays undefined, the default applies',
    () => {
      const config = loadConfig(schema, { ...required, OIDC_ISSUER: '', LOG_LEVEL: '', CORS_ORIGINS: '' });
      expect(config.OIDC_ISSUER).toBeUndefined();
      expect(config.LOG_LEVEL).toBe('info');
    },
  );

  it('when a required secret is empty, then it is missing, named in the error', () => {
    expect(() => loadConfig(schema, { ...required, INTERNAL_IDENTITY_SECRET: '' })).toThrow(ConfigError);
    expect(() => loadConfig(schema, { ...required, INTERNAL_IDENTITY_SECRET: '' })).toThrow(/INTERNAL_IDENTITY_SECRET/);
  });
});
