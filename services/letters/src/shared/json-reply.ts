/** The part of an Express response a pre-serialised JSON answer needs. */
interface JsonResponse {
  status(code: number): this;
  type(type: string): this;
  send(body: string): unknown;
}

/**
 * Answers 200 with a body that is JSON text already, as `res.json` would answer it (same content type, ETag
 * and freshness handling): for views whose large parts are serialised once, not per request.
 */
export function sendJsonText(res: JsonResponse, json: string): void {
  res.status(200).type('application/json').send(json);
}
