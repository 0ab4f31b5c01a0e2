import type { Kysely } from 'kysely';
import { z } from 'zod';
import { DomainError } from '@register/problem';
import { decodeCursor, encodeCursor } from '@register/service-kit';
import type { ApplicationSummary } from '../cases/application.schemas';
import { findByReferentie, isApplicationId } from '../applications/application-reads';
import type { CaseRef, CaseSource, Page, PageRequest } from '../cases/case-source';
import type { AppDatabase } from '../database';
import { findByZaakUuid, zaakUuidsOf } from './case-mirror.repository';
import type { MirrorTarget } from './mirror-case.types';
import { SYSTEM, type ZgwPort } from './zgw';
import type { ZgwCatalog } from './zgw-catalog';
import { summariesOf, Zaak, zakenPage, type Zaak as ZaakT } from './zgw-case-list';

/** A position in the zaken list: the ZGW page and how many of its zaken were already listed. */
const position = z.object({ page: z.number().int().min(1).max(1_000_000), skip: z.number().int().min(0).max(1000) });

/**
 * The case source while mirroring is on (ADR 0008/0011): a case's id is its zaak's uuid. The admin list is
 * the zaaksysteem's zaken of ZGW_ZAAKTYPE_URL; the work queue stays the local one (the state a besluit is
 * recorded against), listed by zaak uuid, and a case the mirror has not written yet by its application id,
 * which keeps resolving after it was mirrored. The practitioner's own list is theirs, by application id.
 */
export class ZgwCaseSource implements CaseSource {
  constructor(
    private readonly local: CaseSource,
    private readonly deps: { db: Kysely<AppDatabase>; zgw: ZgwPort; catalog: ZgwCatalog; target: MirrorTarget },
  ) {}

  listOwn(owner: string, page: PageRequest): Promise<Page<ApplicationSummary>> {
    return this.local.listOwn(owner, page);
  }

  async werkvoorraad(page: PageRequest): Promise<Page<ApplicationSummary>> {
    const listed = await this.local.werkvoorraad(page);
    const zaken = await zaakUuidsOf(
      this.deps.db,
      listed.items.flatMap((i) => (i.status.referentie ? [i.status.referentie] : [])),
    );
    return { ...listed, items: listed.items.map((i) => ({ ...i, id: zaken.get(i.status.referentie ?? '') ?? i.id })) };
  }

  async all(page: PageRequest): Promise<Page<ApplicationSummary>> {
    const at = decodeCursor(page.cursor, position) ?? { page: 1, skip: 0 };
    const zaken: ZaakT[] = [];
    let next: z.infer<typeof position> | null = null;
    for (let n = at.page, skip = at.skip; ; n++, skip = 0) {
      const { zaken: onPage, hasNext } = await zakenPage(this.deps.zgw, this.deps.target, n);
      const take = onPage.slice(skip, skip + page.limit - zaken.length);
      zaken.push(...take);
      if (zaken.length === page.limit) {
        next =
          skip + take.length < onPage.length
            ? { page: n, skip: skip + take.length }
            : hasNext
              ? { page: n + 1, skip: 0 }
              : null;
        break;
      }
      if (!hasNext) break;
    }
    const types = await this.deps.catalog.types();
    if (types.kind !== 'ok') throw new DomainError('unavailable', 'The zaaksysteem catalogue could not be read.');
    const items = await summariesOf({ ...this.deps, types: types.value }, zaken);
    return { items, nextCursor: next ? encodeCursor(next) : null };
  }

  async resolveSubmitted(caseId: string): Promise<CaseRef | null> {
    return (
      (await this.mirrored(caseId)) ??
      ((await this.local.resolveAny(caseId)) ? this.local.resolveSubmitted(caseId) : this.remote(caseId))
    );
  }

  async resolveAny(caseId: string): Promise<(CaseRef & { applicationId: string | null }) | null> {
    const local = await this.local.resolveAny(caseId);
    if (local) return local;
    const ref = (await this.mirrored(caseId)) ?? (await this.remote(caseId));
    if (!ref) return null;
    const row = ref.referentie ? await findByReferentie(this.deps.db, ref.referentie) : undefined;
    return { ...ref, applicationId: row?.id ?? null };
  }

  /** A zaak uuid the mirror recorded (no call to the zaaksysteem). */
  private async mirrored(caseId: string): Promise<CaseRef | null> {
    if (!isApplicationId(caseId)) return null;
    const found = await findByZaakUuid(this.deps.db, caseId.toLowerCase());
    return found ? { caseId: caseId.toLowerCase(), referentie: found.referentie } : null;
  }

  /** Any other zaak of our zaaktype the zaaksysteem holds (made elsewhere, or before our records). */
  private async remote(caseId: string): Promise<CaseRef | null> {
    if (!isApplicationId(caseId)) return null;
    const uuid = caseId.toLowerCase();
    const answer = await this.deps.zgw.call('GET', `${this.deps.target.zakenUrl}/zaken/${uuid}`, SYSTEM);
    if (answer.kind === 'transport' || answer.status >= 500)
      throw new DomainError('unavailable', 'The zaaksysteem could not be reached.');
    if (answer.status !== 200) return null;
    const zaak = Zaak.safeParse(answer.body);
    if (!zaak.success || zaak.data.zaaktype !== this.deps.target.zaaktypeUrl) return null;
    return { caseId: uuid, referentie: zaak.data.identificatie };
  }
}
