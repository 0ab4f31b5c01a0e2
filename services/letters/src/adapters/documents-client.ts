import { documents } from '@register/contracts';
import { DomainError } from '@register/problem';
import { INTERNAL_IDENTITY_HEADER, signInternalIdentity } from '@register/authz';
import { currentCorrelationId, type InternalClient, type Logger } from '@register/service-kit';
import type { LogoSource } from '../rendering/logo-source';
import type { LogoRegistry } from '../templates/logo-registry';

/**
 * The documents service's internal API for organisation logos: the confirm route of its contract, and (when
 * the documents service offers it) the logo's bytes. Logos never change once uploaded, so bytes are cached.
 */
export class DocumentsClient implements LogoRegistry, LogoSource {
  private readonly cache = new Map<string, Buffer>();

  constructor(
    private readonly http: InternalClient,
    private readonly raw: { baseUrl: string; secret: string },
    private readonly logger: Logger,
  ) {}

  async isOrganisatieLogo(documentId: string): Promise<boolean> {
    const res = await this.http.request<unknown>('POST', documents.internal.paths.confirmOrgLogo.replace(':documentId', encodeURIComponent(documentId)));
    // The contract: 200 when the id names an `organisatie-logo` upload, otherwise a bare 404.
    if (res.status === 404) return false;
    if (res.status !== 200 || !documents.internal.confirmOrgLogoResponse.safeParse(res.body).success) {
      throw new DomainError('unavailable', `The documents service answered the logo check with ${res.status}.`);
    }
    return true;
  }

  async logoBytes(documentId: string): Promise<Buffer | null> {
    const cached = this.cache.get(documentId);
    if (cached) return cached;
    try {
      // Bytes, not JSON: signed like the kit's InternalClient, read as they come.
      const headers = { [INTERNAL_IDENTITY_HEADER]: signInternalIdentity(this.raw.secret, { identity: null, service: { service: 'letters' }, correlationId: currentCorrelationId() }) };
      const res = await fetch(new URL(`/internal/org-logos/${encodeURIComponent(documentId)}/content`, this.raw.baseUrl), { headers, signal: AbortSignal.timeout(5000) });
      if (res.status !== 200) {
        this.logger.warn({ status: res.status }, 'org logo not available from the documents service; the letter goes without');
        return null;
      }
      const bytes = Buffer.from(await res.arrayBuffer());
      if (this.cache.size > 50) this.cache.clear();
      this.cache.set(documentId, bytes);
      return bytes;
    } catch (err) {
      this.logger.warn({ err }, 'org logo could not be fetched; the letter goes without');
      return null;
    }
  }
}
