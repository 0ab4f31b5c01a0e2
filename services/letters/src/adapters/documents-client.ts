import { documents } from '@register/contracts';
import { DomainError } from '@register/problem';
import type { InternalClient, Logger } from '@register/service-kit';
import type { LogoSource } from '../rendering/logo-source';
import type { LogoRegistry } from '../templates/logo-registry';

/**
 * The documents service's internal API for organisation logos: the confirm route of its contract and the
 * logo's bytes. Logos never change once uploaded, so bytes are cached.
 */
export class DocumentsClient implements LogoRegistry, LogoSource {
  private readonly cache = new Map<string, Buffer>();

  constructor(
    private readonly http: InternalClient,
    private readonly logger: Logger,
  ) {}

  async isOrganisatieLogo(documentId: string): Promise<boolean> {
    const res = await this.http.request<unknown>(
      'POST',
      documents.internal.paths.confirmOrgLogo.replace(':documentId', encodeURIComponent(documentId)),
    );
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
      const res = await this.http.open(
        documents.internal.paths.orgLogoContent.replace(':documentId', encodeURIComponent(documentId)),
      );
      if (res.status !== 200) {
        res.discard();
        this.logger.warn(
          { status: res.status },
          'org logo not available from the documents service; the letter goes without',
        );
        return null;
      }
      const bytes = await res.bytes();
      if (this.cache.size > 50) this.cache.clear();
      this.cache.set(documentId, bytes);
      return bytes;
    } catch (err) {
      this.logger.warn({ err }, 'org logo could not be fetched; the letter goes without');
      return null;
    }
  }
}
