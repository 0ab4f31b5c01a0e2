import type { Logger } from '@register/service-kit';
import type { UpstreamName } from '../proxy/upstream-name';
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
    readonly identity: OpenApiIdentity | null = null,
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
    const merged = mergeDescriptions([this.own, ...parts.filter((p): p is OpenApiDoc => p !== null)]);
    const doc = this.identity ? withOidcSecurity(merged, this.identity) : merged;
    this.cache = { doc, at: Date.now(), complete: parts.every((p) => p !== null) };
    return doc;
  }
}

/** The API's prefix: the description's server, so Swagger UI's "Try it out" calls the gateway itself. */
const API_PREFIX = '/api/v1';

/** Audience tags, in the order a portal developer reads them. */
const TAGS = [
  {
    name: 'Practitioner',
    description: "A practitioner's own registration, applications, uploads and change requests (`X-Subject`).",
  },
  {
    name: 'Case handler',
    description: 'The work queue, assessment and decisions (`X-Medewerker` with role `beoordelaar`).',
  },
  {
    name: 'Letters',
    description:
      'Decision letters under the four-eyes rule: drafter (`X-Role: drafter`) and approver (`X-Role: approver`).',
  },
  {
    name: 'Administration',
    description: 'Organisation templates, feature flags, cases, uploads and the audit log (`X-Role: admin`).',
  },
  { name: 'Reference data', description: 'Reference tables with valid time and feature flags.' },
  { name: 'Identity', description: 'Who the caller is and what it may do.' },
  { name: 'System', description: 'Probes, and the notification webhook of the case system.' },
];

const INFO = {
  title: 'Register of healthcare professionals: self-service API',
  version: 'v1',
  description: [
    'The API behind the practitioner portal and the case-handler portal.',
    '',
    '**Identity** (today a stand-in for a real identity provider): a practitioner sends ' +
      '`X-Subject` (a citizen identifier) and optionally `X-Role` (`drafter`, `approver`, ' +
      '`admin`); a case handler sends `X-Medewerker` and `X-Rollen` (`beoordelaar` may assess). ' +
      'Use **Authorize** to set them; demo subjects: `900000001` (registered, ' +
      'may apply for herregistratie), `900000002`, `900000003` (suspended), `900000004` (struck off).',
    '',
    '**Errors** are RFC 9457 problem documents (`application/problem+json`) with a `correlationId`; ' +
      'an unknown resource is a bare 404. Every answer carries `API-Version` with the full version.',
    '',
    '**Writes** accept an `Idempotency-Key`; lists accept `limit` (1–1000) ' +
      'and `cursor` and link the next page in `Link`.',
  ].join('\n'),
  contact: { name: 'Register team', email: 'register-api@example.nl', url: 'https://example.nl/register/api' },
  license: { name: 'EUPL-1.2', identifier: 'EUPL-1.2' },
};

/**
 * One description from the gateway's and every service's: paths relative to the API prefix (the probes keep
 * their own server), tags, security schemes and schemas kept. Two parts that define one schema name
 * differently is a defect: it fails here (and so the description test in CI) instead of one silently winning.
 */
export function mergeDescriptions(parts: OpenApiDoc[]): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  const securitySchemes: Record<string, unknown> = {};
  const clashes: string[] = [];
  for (const part of parts) {
    for (const [path, item] of Object.entries(part.paths ?? {})) {
      if (path.startsWith(`${API_PREFIX}/`)) paths[path.slice(API_PREFIX.length)] = item;
      else paths[path] = { ...(item as object), servers: [{ url: '/', description: 'Outside the versioned API' }] };
    }
    for (const [name, schema] of Object.entries(part.components?.schemas ?? {})) {
      if (name in schemas && JSON.stringify(schemas[name]) !== JSON.stringify(schema)) clashes.push(name);
      else schemas[name] = schema;
    }
    Object.assign(securitySchemes, part.components?.securitySchemes ?? {});
  }
  if (clashes.length > 0)
    throw new Error(`schema names defined differently by two services: ${[...new Set(clashes)].join(', ')}`);
  return {
    openapi: '3.1.0',
    info: INFO,
    servers: [{ url: API_PREFIX, description: 'This gateway' }],
    tags: TAGS,
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: { schemas, securitySchemes },
  };
}
