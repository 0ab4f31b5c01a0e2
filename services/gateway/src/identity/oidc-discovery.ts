/** OpenID Connect Discovery 1.0, section 4: the issuer without a trailing slash, then the well-known path. */
export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
}
