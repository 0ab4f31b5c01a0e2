/** How Express makes an ETag of a body (its `etag fn` setting). */
type EtagFn = (body: Buffer) => string | undefined;

/** The part of an Express response a pre-serialised JSON answer needs. */
interface JsonResponse {
  app: { get(setting: string): unknown };
  status(code: number): this;
  type(type: string): this;
  setHeader(name: string, value: string): unknown;
  send(body: Buffer): unknown;
}

/**
 * A JSON answer serialised to bytes once, with its ETag made once (by the app's own ETag function, as
 * `res.send` would make it): a view sent many times costs no per-request encoding or hashing of its ~25 KB.
 */
export class JsonBody {
  readonly bytes: Buffer;
  private etag: { fn: EtagFn; value: string | undefined } | undefined;

  constructor(json: string) {
    this.bytes = Buffer.from(json);
  }

  etagBy(fn: EtagFn): string | undefined {
    if (this.etag?.fn !== fn) this.etag = { fn, value: fn(this.bytes) };
    return this.etag.value;
  }
}

/**
 * Answers 200 with a body that is JSON already, as `res.json` would answer it (same content type, ETag and
 * freshness handling: `res.send` answers 304 to a matching If-None-Match).
 */
export function sendJsonBody(res: JsonResponse, body: JsonBody): void {
  const etagFn = res.app.get('etag fn');
  if (typeof etagFn === 'function') {
    const etag = body.etagBy(etagFn as EtagFn);
    if (etag) res.setHeader('ETag', etag);
  }
  res.status(200).type('application/json').send(body.bytes);
}
