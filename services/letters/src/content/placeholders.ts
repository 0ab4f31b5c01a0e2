import type { PlaceholderDef } from './content.schemas';

/**
 * ADR 0010: the placeholders a letter may carry. Auto-resolvable ones come from the case context; a
 * fillable one is filled in by the drafter (the placeholder node's `text`). `brief.datum` is deprecated: still
 * resolved in old letters, offered by no passage.
 */
export const PLACEHOLDERS: readonly PlaceholderDef[] = [
  { key: 'zorgverlener.naam', label: 'Naam zorgverlener', autoResolvable: true, fillable: false, deprecated: false },
  {
    key: 'zorgverlener.registerNummer',
    label: 'Registernummer (afgeschermd)',
    autoResolvable: true,
    fillable: false,
    deprecated: false,
  },
  { key: 'beroep.naam', label: 'Beroep', autoResolvable: true, fillable: false, deprecated: false },
  {
    key: 'aanvraag.referentie',
    label: 'Referentie aanvraag',
    autoResolvable: true,
    fillable: false,
    deprecated: false,
  },
  { key: 'besluit.datum', label: 'Datum besluit', autoResolvable: true, fillable: false, deprecated: false },
  {
    key: 'besluit.toelichting',
    label: 'Toelichting bij het besluit',
    autoResolvable: true,
    fillable: false,
    deprecated: false,
  },
  { key: 'datum.vandaag', label: 'Datum van de brief', autoResolvable: true, fillable: false, deprecated: false },
  { key: 'termijn.weken', label: 'Termijn (weken)', autoResolvable: false, fillable: true, deprecated: false },
  {
    key: 'brief.datum',
    label: 'Datum van de brief (vervangen door datum.vandaag)',
    autoResolvable: true,
    fillable: false,
    deprecated: true,
  },
];

export const PLACEHOLDER_BY_KEY: ReadonlyMap<string, PlaceholderDef> = new Map(
  PLACEHOLDERS.map((p) => [p.key as string, p]),
);
