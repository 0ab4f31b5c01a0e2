import type { HeaderBag, Identity, IdentityProvider } from '@register/authz';

export type { HeaderBag, IdentityProvider } from '@register/authz';

/** How strongly and how recently the caller authenticated, as its token says (OIDC `acr`, `auth_time`). */
export interface Assurance {
  acr: string | null;
  /** Seconds since the epoch. */
  authTime: number | null;
}

export interface Authentication {
  identity: Identity;
  /** null: the provider knows nothing of assurance (the header stand-in). */
  assurance: Assurance | null;
}

/**
 * The gateway's identity provider port. libs/authz's `IdentityProvider` answers who is calling; the gateway also
 * needs how the caller authenticated (the reveal's step-up) and whether `Authorization` is the provider's to read
 * (the notification webhook carries its shared secret there). Wired in context.ts by `IDENTITY_PROVIDER`.
 */
export interface CallerProvider {
  authenticate(headers: HeaderBag): Promise<Authentication | null>;
  /** True for a bearer-token provider: on a shared-secret route `Authorization` is then not read at all. */
  readonly readsAuthorization: boolean;
  /** The detail of the 401 problem, naming what the provider looks for. */
  readonly missingIdentityDetail: string;
  /** The `WWW-Authenticate` challenge of a 401 (RFC 6750 for bearer tokens), if the provider has one. */
  readonly challenge: string | null;
}

/** The header stand-in (ADR 0001, `HeaderIdentityProvider` in libs/authz) as a caller provider. */
export function headerCallerProvider(provider: IdentityProvider): CallerProvider {
  return {
    async authenticate(headers) {
      const identity = await provider.resolve(headers);
      return identity ? { identity, assurance: null } : null;
    },
    readsAuthorization: false,
    missingIdentityDetail: 'This request carries no valid identity (X-Subject or X-Medewerker).',
    challenge: null,
  };
}
