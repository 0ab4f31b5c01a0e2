import { z } from 'zod';
import { todayInAmsterdam } from '@register/service-kit';
import type { MirrorCase, MirrorTarget } from './mirror-case.types';
import {
  besluitToelichting,
  betrokkeneIdentificatie,
  documentIdentificatie,
  isDuplicateRefusal,
  ok,
  type Result,
  type Step,
} from './mirror-rules';
import { SELF_SERVICE, SYSTEM, type ZgwActor, type ZgwAnswer, type ZgwPort } from './zgw';
import type { CatalogTypes } from './zgw-catalog';
import { Page, Resource, readAnswer } from './zgw-read';

/** A document's content as its information object carries it. */
export interface FileContent {
  /** The bytes, base64-encoded (`inhoud`). */
  inhoud: string;
  size: number;
  contentType: string;
  fileName: string;
}

/** What a step needs besides the case: the port, where to write, the zaaktype's types and a document's content. */
export interface StepEnv {
  zgw: ZgwPort;
  target: MirrorTarget;
  types: CatalogTypes;
  c: MirrorCase;
  /** Fetches (once per step) the content of a linked document; throws when the documents service cannot give it now. */
  content: (documentId: string) => Promise<FileContent>;
}

/** A create that Open Zaak refused as a second copy: the lookup settles it. */
export type Created = Result<string> | { kind: 'duplicate'; detail: string };

const dateOf = (at: Date) => todayInAmsterdam({ now: () => at });
const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
const first = (a: ZgwAnswer, what: string): Result<string | null> => {
  const page = readAnswer(a, 200, Page(Resource), what);
  return page.kind === 'ok' ? ok(page.value.results[0]?.url ?? null) : page;
};
const created = (a: ZgwAnswer, what: string): Created => {
  if (a.kind === 'http' && isDuplicateRefusal(a.status, a.body))
    return { kind: 'duplicate', detail: `${what} answered 400 (already exists)` };
  const r = readAnswer(a, 201, Resource, what);
  return r.kind === 'ok' ? ok(r.value.url) : r;
};

/** At most `max` characters as Open Zaak counts them (code points), never half a surrogate pair. */
const codePoints = (text: string, max: number) => Array.from(text).slice(0, max).join('');

function need<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new MissingFact(what);
  return value;
}

/** A fact a step needs is not there (an earlier step's URL, the application): a divergence, never a retry. */
export class MissingFact extends Error {}

/**
 * The user the JWT names: the case handler for the besluit, the portal for the submit, the service itself otherwise.
 */
export function actorOf(env: StepEnv, step: Step): ZgwActor {
  if (step.kind === 'besluit') {
    const by = env.c.besluitBy ?? 'onbekend';
    return { userId: by, representation: by };
  }
  return step.kind === 'delete' ? SYSTEM : SELF_SERVICE;
}

export type CreateStep = Exclude<Step, { kind: 'delete' }>;

/** How each step finds what an earlier try created (a lost answer) and how it creates it (ADR 0011 payloads). */
export const STEPS: {
  [K in CreateStep['kind']]: {
    lookup(env: StepEnv, step: Extract<Step, { kind: K }>): Promise<Result<string | null>>;
    create(env: StepEnv, step: Extract<Step, { kind: K }>): Promise<Created>;
  };
} = {
  zaak: {
    lookup: async ({ zgw, target, c }) =>
      first(
        await zgw.call(
          'GET',
          `${target.zakenUrl}/zaken?${q({ identificatie: c.referentie, bronorganisatie: target.rsin })}`,
          SELF_SERVICE,
        ),
        'zaak lookup',
      ),
    create: async ({ zgw, target, c }) => {
      const app = need(c.application, 'application');
      const datum = dateOf(app.submittedAt);
      const body = {
        identificatie: c.referentie,
        bronorganisatie: target.rsin,
        verantwoordelijkeOrganisatie: target.rsin,
        zaaktype: target.zaaktypeUrl,
        startdatum: datum,
        registratiedatum: datum,
        omschrijving: `Aanvraag ${app.type}`.slice(0, 80),
      };
      return created(await zgw.call('POST', `${target.zakenUrl}/zaken`, SELF_SERVICE, body), 'zaak');
    },
  },
  ingediend: {
    lookup: (env) => statusLookup(env, 0),
    create: async ({ zgw, target, types, c }) => {
      const body = {
        zaak: need(c.zaakUrl, 'zaak'),
        statustype: types.statustypen[0]!.url,
        datumStatusGezet: need(c.application, 'application').submittedAt.toISOString(),
      };
      return created(await zgw.call('POST', `${target.zakenUrl}/statussen`, SELF_SERVICE, body), 'status');
    },
  },
  initiator: {
    lookup: async ({ zgw, target, c }) =>
      first(
        await zgw.call(
          'GET',
          `${target.zakenUrl}/rollen?${q({ zaak: need(c.zaakUrl, 'zaak'), omschrijvingGeneriek: 'initiator' })}`,
          SELF_SERVICE,
        ),
        'rol lookup',
      ),
    create: async ({ zgw, target, types, c }) => {
      const body = {
        zaak: need(c.zaakUrl, 'zaak'),
        roltype: types.initiator,
        betrokkeneType: 'natuurlijk_persoon',
        roltoelichting: 'Aanvrager',
        betrokkeneIdentificatie: betrokkeneIdentificatie(need(c.application, 'application').owner),
      };
      return created(await zgw.call('POST', `${target.zakenUrl}/rollen`, SELF_SERVICE, body), 'rol');
    },
  },
  document: {
    lookup: async ({ zgw, target, c }, step) =>
      first(
        await zgw.call(
          'GET',
          `${target.documentenUrl}/enkelvoudiginformatieobjecten?` +
            `${q({ identificatie: documentIdentificatie(c.referentie, step.index), bronorganisatie: target.rsin })}`,
          SELF_SERVICE,
        ),
        'document lookup',
      ),
    create: async ({ zgw, target, types, c, content }, step) => {
      const app = need(c.application, 'application');
      const file = await content(step.documentId);
      const categoryId = app.documents.find((d) => d.documentId === step.documentId)?.categoryId;
      const body = {
        identificatie: documentIdentificatie(c.referentie, step.index),
        bronorganisatie: target.rsin,
        creatiedatum: dateOf(app.submittedAt),
        titel: codePoints(file.fileName, 200),
        auteur: 'self-service',
        taal: 'nld',
        informatieobjecttype: types.informatieobjecttype,
        formaat: codePoints(file.contentType, 255),
        bestandsnaam: codePoints(file.fileName, 255),
        // Open Zaak refuses a size that differs from the decoded inhoud (`file-size`).
        bestandsomvang: file.size,
        inhoud: file.inhoud,
        beschrijving: `Bijlage ${categoryId ?? ''} bij ${c.referentie}.`.slice(0, 1000),
      };
      return created(
        await zgw.call('POST', `${target.documentenUrl}/enkelvoudiginformatieobjecten`, SELF_SERVICE, body),
        'enkelvoudiginformatieobject',
      );
    },
  },
  relation: {
    lookup: async ({ zgw, target, c }, step) => {
      const a = await zgw.call(
        'GET',
        `${target.zakenUrl}/zaakinformatieobjecten?` +
          `${q({
            zaak: need(c.zaakUrl, 'zaak'),
            informatieobject: need(c.recorded.get(`eio:${step.documentId}`), 'document'),
          })}`,
        SELF_SERVICE,
      );
      const list = readAnswer(a, 200, z.array(Resource), 'zaakinformatieobject lookup');
      return list.kind === 'ok' ? ok(list.value[0]?.url ?? null) : list;
    },
    create: async ({ zgw, target, c }, step) => {
      const body = {
        zaak: need(c.zaakUrl, 'zaak'),
        informatieobject: need(c.recorded.get(`eio:${step.documentId}`), 'document'),
      };
      return created(
        await zgw.call('POST', `${target.zakenUrl}/zaakinformatieobjecten`, SELF_SERVICE, body),
        'zaakinformatieobject',
      );
    },
  },
  besluit: {
    lookup: (env) => statusLookup(env, 1),
    create: async (env) => {
      const { zgw, target, types, c } = env;
      const app = need(c.application, 'application');
      const body = {
        zaak: need(c.zaakUrl, 'zaak'),
        statustype: types.statustypen[1]!.url,
        // The decision's own time: every retry writes the same (zaak, datumStatusGezet), which Open Zaak keeps unique.
        datumStatusGezet: need(app.decidedAt, 'decidedAt').toISOString(),
        statustoelichting: besluitToelichting(need(app.besluit, 'besluit'), app.toelichting),
      };
      return created(
        await zgw.call(
          'POST',
          `${target.zakenUrl}/statussen`,
          actorOf(env, { kind: 'besluit', key: 'status:besluit' }),
          body,
        ),
        'status',
      );
    },
  },
};

async function statusLookup({ zgw, target, types, c }: StepEnv, index: number): Promise<Result<string | null>> {
  const a = await zgw.call(
    'GET',
    `${target.zakenUrl}/statussen?${q({ zaak: need(c.zaakUrl, 'zaak'), statustype: types.statustypen[index]!.url })}`,
    SELF_SERVICE,
  );
  return first(a, 'status lookup');
}
