import { z } from 'zod';
import { RichTextBlock } from '../content/content.schemas';
import { SECTION_KEYS } from '../content/sections';

export const PASSAGE_SCOPES = ['algemeen', 'beroep'] as const;
export const BESLUITEN = ['toekennen', 'afwijzen', 'buiten-behandeling'] as const;
export type Besluit = (typeof BESLUITEN)[number];

export const LibraryPassage = z
  .strictObject({
    passageId: z.string().nullable(),
    scope: z
      .enum(PASSAGE_SCOPES)
      .nullable()
      .meta({ description: '`algemeen` (every beroep) or `beroep` (then `beroep` is set).' }),
    sectionKey: z.enum(SECTION_KEYS).nullable(),
    label: z.string().nullable(),
    content: RichTextBlock,
    version: z.number().int(),
    beroep: z.string().nullable(),
    isDefault: z.boolean().meta({ description: 'Starter text for an empty section.' }),
    besluit: z
      .enum(BESLUITEN)
      .nullable()
      .meta({ description: 'The decision this passage belongs to; null for every decision.' }),
    reason: z
      .string()
      .nullable()
      .meta({ description: 'Reason tag of a negative decision (`onvoldoende-werkervaring`, …).' }),
  })
  .meta({ id: 'LibraryPassage' });
export type LibraryPassage = z.infer<typeof LibraryPassage>;
