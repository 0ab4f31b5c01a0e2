import url from 'node:url';

let settled = false;

/**
 * Spares a request a stack walk in the legacy `url.parse`.
 *
 * http-proxy-middleware checked each request's path with `url.parse` (path-filter.js `getUrlPathName`), until the
 * gateway's own proxy core replaced it (ADR 0271); Express's `parseurl` still falls back to it for a path it cannot
 * read fast (one with a space, a hash, a tab). Node 24's `url.parse` first asks whether its caller lies inside
 * node_modules, to warn (DEP0169) only application code, by walking up to 100 stack frames; until the warning has
 * been given once it asks on every call, and a caller inside node_modules never gives it, so the walk never stops
 * (nodejs/node#60991). Under the gateway's deep Express stack that was ~24 µs of its ~640 µs of CPU per request
 * (a --cpu-prof of the gateway under load; 5.6 µs per call in a shallow loop, 0.7 µs without the walk).
 *
 * One call from this file, with deprecation warnings muted for its duration, sets Node's once-only latch
 * (`urlParseWarned`): later calls skip the walk. Nothing is printed and no code of ours uses `url.parse`.
 * test/legacy-url.test.ts fails when a Node upgrade changes this. Idempotent.
 */
export function settleUrlParseWarning(): void {
  if (settled) return;
  settled = true;
  const muted = process.noDeprecation;
  process.noDeprecation = true;
  try {
    url.parse('/');
  } finally {
    process.noDeprecation = muted;
  }
}
