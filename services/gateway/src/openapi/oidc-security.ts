import { discoveryUrl } from '../identity/oidc-discovery';

/** The header schemes of the stand-in (ADR 0001) that a bearer token replaces; the webhook's secret stays. */
const HEADER_SCHEMES = new Set(['subject', 'role', 'medewerker', 'rollen']);
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

export interface OpenApiIdentity {
  /** The issuer's discovery document, which Swagger UI reads to offer the sign-in. */
  openIdConnectUrl: string;
  /** The issuer's origin: /docs may connect to it (discovery, token endpoint). */
  issuerOrigin: string;
  /** The public client Swagger UI signs in as (code flow with PKCE, redirect `/docs/oauth2-redirect.html`). */
  docsClientId: string;
}

/** With `IDENTITY_PROVIDER=oidc` the description offers the issuer's OpenID Connect scheme; else null. */
export function openApiIdentity(config: {
  IDENTITY_PROVIDER: string;
  OIDC_ISSUER?: string | undefined;
  OIDC_DOCS_CLIENT_ID?: string;
}): OpenApiIdentity | null {
  if (config.IDENTITY_PROVIDER !== 'oidc' || !config.OIDC_ISSUER) return null;
  return {
    openIdConnectUrl: discoveryUrl(config.OIDC_ISSUER),
    issuerOrigin: new URL(config.OIDC_ISSUER).origin,
    docsClientId: config.OIDC_DOCS_CLIENT_ID ?? 'register-swagger-ui',
  };
}

const OIDC_PARAGRAPH =
  '**Identity**: an OpenID Connect access token, `Authorization: ' +
  'Bearer <JWT>` (identity headers are ignored). Use **Authorize** to sign in at the ' +
  'identity provider; revealing a register number also needs a strong or recent sign-in.';

interface Doc {
  info?: Record<string, unknown>;
  paths?: Record<string, unknown>;
  components?: { securitySchemes?: Record<string, unknown> };
}

/**
 * The merged description as the OIDC gateway enforces it: every operation that asks for the identity headers
 * asks for the `oidc` scheme instead (the headers are ignored then), and only that scheme is described.
 */
export function withOidcSecurity<D extends Doc>(doc: D, identity: OpenApiIdentity): D {
  const schemes = Object.fromEntries(
    Object.entries(doc.components?.securitySchemes ?? {}).filter(([name]) => !HEADER_SCHEMES.has(name)),
  );
  schemes['oidc'] = {
    type: 'openIdConnect',
    openIdConnectUrl: identity.openIdConnectUrl,
    description:
      'Sign in at the identity provider; the API takes the access token ' +
      'as `Authorization: Bearer <JWT>`. Identity headers are ignored.',
  };
  const paths: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!item || typeof item !== 'object') {
      paths[path] = item;
      continue;
    }
    paths[path] = Object.fromEntries(
      Object.entries(item as Record<string, unknown>).map(([method, op]) => {
        if (
          !METHODS.includes(method) ||
          !op ||
          typeof op !== 'object' ||
          !('security' in op) ||
          !Array.isArray(op.security)
        )
          return [method, op];
        const security = op.security as Array<Record<string, string[]>>;
        const rewritten = security.map((req) =>
          Object.keys(req).some((k) => HEADER_SCHEMES.has(k)) ? { oidc: [] } : req,
        );
        const unique = [...new Map(rewritten.map((r) => [JSON.stringify(r), r])).values()];
        return [method, { ...op, security: unique }];
      }),
    );
  }
  return {
    ...doc,
    info: { ...doc.info, description: withIdentityParagraph(doc.info?.['description']) },
    paths,
    components: { ...doc.components, securitySchemes: schemes },
  };
}

/** The description's paragraph about identity (the header stand-in) replaced by the bearer token's. */
function withIdentityParagraph(description: unknown): string {
  const paragraphs = typeof description === 'string' && description !== '' ? description.split('\n\n') : [];
  const at = paragraphs.findIndex((p) => p.startsWith('**Identity**'));
  if (at >= 0) paragraphs[at] = OIDC_PARAGRAPH;
  else paragraphs.unshift(OIDC_PARAGRAPH);
  return paragraphs.join('\n\n');
}
