import type { Assurance } from './identity-provider';

/**
 * Assurance levels from low to high, on one scale: eToegang/eHerkenning (`loa1` … `loa4`), DigiD through the
 * SAML authentication context classes its OIDC brokers pass on (Basis, Midden, Substantieel, Hoog), and eIDAS
 * (low, substantial, high). Values on one rank are equivalent (DigiD Substantieel = eIDAS substantial = loa3).
 */
export const ACR_RANKS: ReadonlyMap<string, number> = new Map([
  ['urn:etoegang:core:assurance-class:loa1', 1],
  ['urn:etoegang:core:assurance-class:loa2', 2],
  ['urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport', 2],
  ['http://eidas.europa.eu/LoA/low', 2],
  ['urn:etoegang:core:assurance-class:loa2plus', 2.5],
  ['urn:oasis:names:tc:SAML:2.0:ac:classes:MobileTwoFactorContract', 2.5],
  ['urn:etoegang:core:assurance-class:loa3', 3],
  ['urn:oasis:names:tc:SAML:2.0:ac:classes:Smartcard', 3],
  ['http://eidas.europa.eu/LoA/substantial', 3],
  ['urn:etoegang:core:assurance-class:loa4', 4],
  ['urn:oasis:names:tc:SAML:2.0:ac:classes:SmartcardPKI', 4],
  ['http://eidas.europa.eu/LoA/high', 4],
]);

/** An IdP with acr values of its own (Keycloak's `0`, `1`, `2` …): the list from low to high replaces the table. */
export function acrRanks(order: readonly string[] | undefined): ReadonlyMap<string, number> {
  return order && order.length > 0 ? new Map(order.map((acr, i) => [acr, i + 1])) : ACR_RANKS;
}

export interface StepUpPolicy {
  /** The lowest `acr` that counts as step-up; null: only a recent authentication counts. */
  minimumAcr: string | null;
  /** An `auth_time` at most this many seconds ago counts as step-up; null: only the acr counts. */
  maxAgeSeconds: number | null;
  ranks: ReadonlyMap<string, number>;
  /** The clock skew allowed for an `auth_time` in the future (the token leeway). */
  leewaySeconds: number;
}

/** ADR 0001: the reveal needs `acr` at or above the minimum, or an authentication within the maximum age. */
export function stepUpSatisfied(assurance: Assurance | null, policy: StepUpPolicy, nowSeconds: number): boolean {
  if (!assurance) return false;
  const { acr, authTime } = assurance;
  if (policy.minimumAcr !== null && acr !== null) {
    const rank = policy.ranks.get(acr);
    const needed = policy.ranks.get(policy.minimumAcr);
    if (rank !== undefined && needed !== undefined && rank >= needed) return true;
  }
  if (policy.maxAgeSeconds !== null && authTime !== null) {
    const age = nowSeconds - authTime;
    if (age <= policy.maxAgeSeconds && age >= -policy.leewaySeconds) return true;
  }
  return false;
}
