import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CryptoKey, JWK, JWTPayload } from 'jose' with { 'resolution-mode': 'import' };

export const jose = import('jose');

export interface SigningKey {
  kid: string;
  alg: 'RS256' | 'ES256';
  privateKey: CryptoKey;
  publicJwk: JWK;
  /** The public key as PEM: what an attacker "signs" an HS256 token with. */
  publicPem: string;
}

export async function signingKey(kid: string, alg: 'RS256' | 'ES256' = 'RS256'): Promise<SigningKey> {
  const { exportJWK, exportSPKI, generateKeyPair } = await jose;
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return {
    kid,
    alg,
    privateKey,
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' },
    publicPem: await exportSPKI(publicKey),
  };
}

/**
 * A real issuer for the gateway to verify against: discovery and JWKS over HTTP, keys made with jose. It can
 * rotate (`keys`), refuse connections (`down`) or accept and never answer (`hang`), and counts JWKS fetches.
 */
export class TestIssuer {
  keys: SigningKey[] = [];
  mode: 'up' | 'down' | 'hang' = 'up';
  jwksFetches = 0;
  /** Requests that reached the server while it was down or hung. */
  unanswered = 0;
  private readonly hanging = new Set<http.ServerResponse>();
  private server: http.Server | null = null;
  issuer = '';

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.issuer = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (this.mode === 'down') {
      this.unanswered += 1;
      req.socket.destroy();
      return;
    }
    if (this.mode === 'hang') {
      this.unanswered += 1;
      this.hanging.add(res);
      return;
    }
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') {
      res.end(
        JSON.stringify({
          issuer: this.issuer,
          jwks_uri: `${this.issuer}/jwks`,
          authorization_endpoint: `${this.issuer}/auth`,
          token_endpoint: `${this.issuer}/token`,
        }),
      );
    } else if (req.url === '/jwks') {
      this.jwksFetches += 1;
      res.end(JSON.stringify({ keys: this.keys.map((k) => k.publicJwk) }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    await new Promise<void>((resolve) => {
      this.server?.close(() => resolve());
      this.server?.closeAllConnections();
    });
  }
}

export interface MintOptions {
  key: SigningKey;
  issuer: string;
  audience?: string;
  /** Seconds from now; negative: already expired. */
  expiresIn?: number;
  notBefore?: number;
  kid?: string;
}

/** A signed access token as an IdP issues it. */
export async function mint(claims: JWTPayload, options: MintOptions): Promise<string> {
  const { SignJWT } = await jose;
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: options.key.alg, kid: options.kid ?? options.key.kid, typ: 'at+jwt' })
    .setIssuer(options.issuer)
    .setAudience(options.audience ?? 'register-api')
    .setIssuedAt(now)
    .setExpirationTime(now + (options.expiresIn ?? 300));
  if (options.notBefore !== undefined) jwt.setNotBefore(now + options.notBefore);
  return jwt.sign(options.key.privateKey);
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The classic forgeries: an unsigned token, and an HMAC "signed" with the issuer's public key. */
export async function forge(
  kind: 'none' | 'hs256-public-key',
  claims: JWTPayload,
  key: SigningKey,
  issuer: string,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const payload = { ...claims, iss: issuer, aud: 'register-api', iat: now, exp: now + 300 };
  if (kind === 'none') return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`;
  const { createHmac } = await import('node:crypto');
  const input = `${b64({ alg: 'HS256', kid: key.kid, typ: 'JWT' })}.${b64(payload)}`;
  return `${input}.${createHmac('sha256', key.publicPem).update(input).digest('base64url')}`;
}

/** The signature of one token on the payload of another: the claims changed after signing. */
export function tamper(token: string, claims: JWTPayload): string {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const changed = { ...JSON.parse(Buffer.from(payload, 'base64url').toString()), ...claims };
  return `${header}.${b64(changed)}.${signature}`;
}
