/**
 * The identity provider port: who is calling, read from the request's headers (null: nobody). The header
 * stand-in of decisions §1 (`HeaderIdentityProvider` in libs/authz) is wired in context.ts; a real provider
 * (OIDC) replaces it there and nowhere else.
 */
export type { HeaderBag, IdentityProvider } from '@register/authz';
