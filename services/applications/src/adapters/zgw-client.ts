import type { ZgwActor, ZgwAnswer, ZgwPort } from '../case-mirror/zgw';

// jose is published as ES modules only; a dynamic import keeps this CommonJS service loadable.
const jose = import('jose');

export interface ZgwClientOptions {
  /** The JWT's `iss` and `client_id` (ZGW_CLIENT_ID). */
  clientId: string;
  /** The HS256 secret Open Zaak holds for this client (ZGW_SECRET). */
  secret: string;
  /** The Zaken API root: its calls carry the CRS headers. */
  zakenUrl: string;
  timeoutMs: number;
}

/** What went wrong without an answer, for the log and `last_error`: the error's name and fetch's hidden code. */
function transportDetail(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return `${err.name}: ${cause?.code ?? cause?.message ?? err.message}`.slice(0, 300);
}

function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The ZGW APIs over fetch (pitfalls.md, "Outbound HTTP"): a JWT minted for every call (Open Zaak's leeway is
 * 0, so `iat` is now in whole seconds), `Accept-Crs`/`Content-Crs: EPSG:4326` on the Zaken API, and
 * ZGW_TIMEOUT_MS per call. A failure without an HTTP answer, also one that cuts the body, is `transport`.
 */
export class ZgwClient implements ZgwPort {
  private readonly key: Uint8Array;
  private readonly zakenPrefix: string;

  constructor(private readonly options: ZgwClientOptions) {
    this.key = new TextEncoder().encode(options.secret);
    this.zakenPrefix = `${options.zakenUrl.replace(/\/+$/, '')}/`;
  }

  private async token(actor: ZgwActor): Promise<string> {
    const { SignJWT } = await jose;
    return new SignJWT({ client_id: this.options.clientId, user_id: actor.userId, user_representation: actor.representation })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(this.options.clientId)
      .setIssuedAt(Math.floor(Date.now() / 1000))
      .sign(this.key);
  }

  async call(method: 'GET' | 'POST' | 'DELETE', url: string, actor: ZgwActor, body?: unknown): Promise<ZgwAnswer> {
    const headers: Record<string, string> = { Authorization: `Bearer ${await this.token(actor)}`, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (url.startsWith(this.zakenPrefix)) {
      headers['Accept-Crs'] = 'EPSG:4326';
      headers['Content-Crs'] = 'EPSG:4326';
    }
    try {
      const res = await fetch(url, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      return { kind: 'http', status: res.status, body: parseJson(await res.text()) };
    } catch (err) {
      return { kind: 'transport', detail: transportDetail(err) };
    }
  }
}
