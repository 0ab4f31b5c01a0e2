import type { Logger } from '@register/service-kit';
import type { UpstreamName } from '../proxy/upstreams';
import { withOidcSecurity, type OpenApiIdentity } from './oidc-security';

interface OpenApiDoc {
  paths?: Record<string, unknown>;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
}

/**
 * The public description (version v1): the gateway's own paths plus every service's zod-generated
 * document, fetched from the services and cached briefly. An unreachable service is left out until it is back.
 */
export class MergedOpenApi {
  private cache: { doc: object; at: number; complete: boolean } | null = null;

  constructor(
    private readonly own: OpenApiDoc,
    private readonly targets: Record<UpstreamName, string>,
    private readonly logger: Logger,
    private readonly ttlMs = 30_000,
    /** With `IDENTITY_PROVIDER=oidc`: the issuer's scheme instead of the identity headers. */
    private readonly identity: OpenApiIdentity | null = null,
  ) {}

  async document(): Promise<object> {
    if (this.cache && this.cache.complete && Date.now() - this.cache.at < this.ttlMs) return this.cache.doc;
    const parts = await Promise.all(
      Object.entries(this.targets).map(async ([name, url]) => {
        try {
          const res = await fetch(new URL('/openapi.json', url), { signal: AbortSignal.timeout(2000) });
          return res.ok ? ((await res.json()) as OpenApiDoc) : null;
        } catch {
          this.logger.warn({ service: name }, 'openapi of service unavailable');
          return null;
        }
      }),
    );
    const paths: Record<string, unknown> = { ...this.own.paths };
    const schemas: Record<string, unknown> = { ...this.own.components?.schemas };
    const securitySchemes: Record<string, unknown> = { ...this.own.components?.securitySchemes };
    for (const part of parts) {
      Object.assign(paths, part?.paths ?? {});
      Object.assign(schemas, part?.components?.schemas ?? {});
      Object.assign(securitySchemes, part?.components?.securitySchemes ?? {});
    }
    const merged = {
      openapi: '3.1.0',
      info: {
        title: 'Register of healthcare professionals: self-service API',
        version: 'v1',
        description: 'Identity: `X-Subject` (+ `X-Role`) for a practitioner, `X-Medewerker` (+ `X-Rollen`) for a case handler. Errors are RFC 9457 problem documents.',
      },
      paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
      components: { schemas, securitySchemes },
    };
    const doc = this.identity ? withOidcSecurity(merged, this.identity) : merged;
    this.cache = { doc, at: Date.now(), complete: parts.every((p) => p !== null) };
    return doc;
  }
}
