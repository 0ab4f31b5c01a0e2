import { sql } from 'kysely';
import { z } from 'zod';
import { DomainError } from '@register/problem';
import { BESLUITEN } from '../assessment/assessment.schemas';
import type { ApplicationSummary } from '../cases/application.schemas';
import type { Db } from '../database';
import { mask } from '../cases/mask';
import type { MirrorTarget } from './mirror-case.types';
import { besluitOf } from './mirror-rules';
import { SYSTEM, type ZgwPort } from './zgw';
import type { CatalogTypes } from './zgw-catalog';
import { Page, readAnswer } from './zgw-read';

export const Zaak = z
  .object({
    url: z.url(),
    uuid: z.string(),
    identificatie: z.string(),
    zaaktype: z.string(),
    status: z.string().nullable(),
  })
  .loose();
export type Zaak = z.infer<typeof Zaak>;
const Status = z.object({ statustype: z.string(), statustoelichting: z.string().nullish() }).loose();
const Rol = z
  .object({
    betrokkeneIdentificatie: z
      .object({ inpBsn: z.string().nullish(), anpIdentificatie: z.string().nullish() })
      .loose()
      .nullish(),
  })
  .loose();

/** A ZGW answer the listing cannot do without: no answer, or not the one expected, is a 503 (nothing is guessed). */
export async function must<S extends z.ZodType>(
  zgw: ZgwPort,
  url: string,
  schema: S,
  what: string,
): Promise<z.output<S>> {
  const result = readAnswer(await zgw.call('GET', url, SYSTEM), 200, schema, what);
  if (result.kind !== 'ok') throw new DomainError('unavailable', `The zaaksysteem could not list ${what}.`);
  return result.value;
}

/** One page of the zaken of ZGW_ZAAKTYPE_URL (Open Zaak pages by 100; `page` counts from 1). */
export async function zakenPage(
  zgw: ZgwPort,
  target: MirrorTarget,
  page: number,
): Promise<{ zaken: Zaak[]; hasNext: boolean }> {
  const url = `${target.zakenUrl}/zaken?${new URLSearchParams({ zaaktype: target.zaaktypeUrl, page: String(page) }).toString()}`;
  const body = await must(zgw, url, Page(Zaak), 'zaken');
  return { zaken: body.results, hasNext: Boolean(body.next) };
}

interface LocalFacts {
  referentie: string;
  type: string;
  step_index: number | null;
  step_count: number | null;
  manual: boolean;
  reden: string | null;
  document_ids: string[];
  created_iso: string;
  updated_iso: string;
  submitted_iso: string | null;
}

const ISO = sql.lit('YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');

/** What only the local store knows about these cases (type, documents, timestamps, the flag), by referentie. */
async function localFacts(db: Db, referenties: string[]): Promise<Map<string, LocalFacts>> {
  if (referenties.length === 0) return new Map();
  const { rows } = await sql<LocalFacts>`
    SELECT referentie, type, step_index, step_count, manual, reden, document_ids,
      to_char(created_at AT TIME ZONE 'UTC', ${ISO}) AS created_iso, to_char(updated_at AT TIME ZONE 'UTC', ${ISO}) AS updated_iso,
      to_char(submitted_at AT TIME ZONE 'UTC', ${ISO}) AS submitted_iso
    FROM applications WHERE referentie = ANY(${referenties}::text[])`.execute(db);
  return new Map(rows.map((r) => [r.referentie, r]));
}

/** The status tag of a zaak's current status: Ingediend for the first type, the besluit's tag after that. */
function tagOf(types: CatalogTypes, status: z.infer<typeof Status> | null): string | null {
  if (!status) return null;
  const index = types.statustypen.findIndex((t) => t.url === status.statustype);
  if (index === 0) return 'Ingediend';
  const besluit = besluitOf(status.statustoelichting) as keyof typeof BESLUITEN | null;
  if (besluit) return BESLUITEN[besluit];
  return types.statustypen[index]?.omschrijving ?? null;
}

/** Runs `work` over `items`, at most `limit` at a time, keeping the order. */
async function mapLimited<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * ADR 0011: a zaak as an ApplicationSummary: `id` its uuid, `referentie` its identificatie, the status
 * from its current status's type, the owner masked from the initiator role; type, documents, timestamps and
 * the flag from the local application where there is one (the zaaksysteem does not hold them).
 */
export async function summariesOf(
  deps: { db: Db; zgw: ZgwPort; target: MirrorTarget; types: CatalogTypes },
  zaken: Zaak[],
): Promise<ApplicationSummary[]> {
  const { db, zgw, target, types } = deps;
  const local = await localFacts(
    db,
    zaken.map((z) => z.identificatie),
  );
  return mapLimited(zaken, 8, async (zaak) => {
    const { status, owner } = await statusAndInitiator(zgw, target, zaak);
    return summaryOf(zaak, tagOf(types, status), owner, local.get(zaak.identificatie));
  });
}

/** The zaak's current status and its initiator's identifier (a BSN or an ANP number), from the zaaksysteem. */
async function statusAndInitiator(
  zgw: ZgwPort,
  target: MirrorTarget,
  zaak: Zaak,
): Promise<{ status: z.infer<typeof Status> | null; owner: string | null }> {
  const initiators = new URLSearchParams({ zaak: zaak.url, omschrijvingGeneriek: 'initiator' }).toString();
  const [status, rollen] = await Promise.all([
    zaak.status ? must(zgw, zaak.status, Status, 'statussen') : null,
    must(zgw, `${target.zakenUrl}/rollen?${initiators}`, Page(Rol), 'rollen'),
  ]);
  const who = rollen.results[0]?.betrokkeneIdentificatie;
  return { status, owner: who?.inpBsn || who?.anpIdentificatie || null };
}

/** What only the local application knows: null (manual false) for a zaak that has none here. */
function localPart(l: LocalFacts | undefined) {
  if (!l) {
    return {
      type: null,
      stepIndex: null,
      stepCount: null,
      manual: false,
      reden: null,
      documentIds: null,
      createdAt: null,
      updatedAt: null,
      submittedAt: null,
    };
  }
  return {
    type: l.type,
    stepIndex: l.step_index,
    stepCount: l.step_count,
    manual: l.manual,
    reden: l.reden,
    documentIds: l.document_ids,
    createdAt: l.created_iso,
    updatedAt: l.updated_iso,
    submittedAt: l.submitted_iso,
  };
}

function summaryOf(
  zaak: Zaak,
  tag: string | null,
  owner: string | null,
  local: LocalFacts | undefined,
): ApplicationSummary {
  const l = localPart(local);
  return {
    id: zaak.uuid,
    type: l.type,
    status: {
      tag,
      stepIndex: l.stepIndex,
      stepCount: l.stepCount,
      referentie: zaak.identificatie,
      manual: l.manual,
      reden: l.reden,
    },
    documentIds: l.documentIds,
    createdAt: l.createdAt,
    updatedAt: l.updatedAt,
    submittedAt: l.submittedAt,
    owner: mask(owner),
  };
}
