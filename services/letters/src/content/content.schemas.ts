import { z } from 'zod';
import { cleanString } from '../shared/text';
import { BLOCK_TYPES, LIST_KINDS, MARKS, NODE_TYPES, SECTION_KEYS } from './sections';

// The letter content as the server delivers it: every field present, null when absent (ADR 0003).

export const RichTextNode = z
  .strictObject({
    type: z.enum(NODE_TYPES),
    text: z.string().nullable(),
    marks: z.array(z.enum(MARKS)).nullable(),
    key: z.string().nullable().meta({ description: 'Placeholder key when the node is a placeholder.' }),
  })
  .meta({ id: 'RichTextNode' });

export const Paragraph = z
  .strictObject({
    nodes: z.array(RichTextNode).nullable(),
    list: z
      .enum(LIST_KINDS)
      .nullable()
      .meta({ description: 'List kind of the paragraph: `bullet`, `ordered` or null.' }),
  })
  .meta({ id: 'Paragraph' });

export const RichTextBlock = z
  .strictObject({ paragraphs: z.array(Paragraph).nullable() })
  .meta({ id: 'RichTextBlock' });

export const LetterBlock = z
  .strictObject({
    type: z.enum(BLOCK_TYPES),
    blockId: z.string().nullable(),
    content: RichTextBlock,
    sourcePassageId: z.string().nullable(),
    sourceVersion: z.number().int().nullable(),
    edited: z
      .boolean()
      .nullable()
      .meta({ description: 'For a passage block: true once its content differs from that passage version.' }),
  })
  .meta({ id: 'LetterBlock' });

export const LetterSection = z
  .strictObject({
    sectionKey: z.enum(SECTION_KEYS),
    title: z.string().nullable(),
    required: z.boolean(),
    blocks: z.array(LetterBlock).nullable(),
    locked: z.boolean().meta({ description: 'A locked section is predefined and not editable by the drafter.' }),
  })
  .meta({ id: 'LetterSection' });

export const PlaceholderDef = z
  .strictObject({
    key: z.string().nullable(),
    label: z.string().nullable(),
    autoResolvable: z.boolean(),
    fillable: z.boolean().nullable(),
    deprecated: z.boolean().nullable(),
  })
  .meta({ id: 'PlaceholderDef' });

export type RichTextNode = z.infer<typeof RichTextNode>;
export type Paragraph = z.infer<typeof Paragraph>;
export type RichTextBlock = z.infer<typeof RichTextBlock>;
export type LetterBlock = z.infer<typeof LetterBlock>;
export type LetterSection = z.infer<typeof LetterSection>;
export type PlaceholderDef = z.infer<typeof PlaceholderDef>;

// What a drafter may send: the value sets of ADR 0010, bounded in size; anything else is a 400.

const Marks = z
  .array(z.enum(MARKS))
  .max(MARKS.length)
  .refine((marks) => new Set(marks).size === marks.length, { message: 'A mark is given twice.' });
const noValue = z.null().optional();

const TextNodeInput = z.strictObject({
  type: z.literal('text'),
  text: cleanString(10_000),
  marks: Marks.nullish(),
  key: noValue,
});
const PlaceholderNodeInput = z.strictObject({
  type: z.literal('placeholder'),
  key: cleanString(100),
  text: cleanString(200)
    .nullish()
    .meta({ description: 'For a fillable placeholder: the value the drafter filled in.' }),
  marks: Marks.nullish(),
});
const HardBreakInput = z.strictObject({
  type: z.literal('hardBreak'),
  text: noValue,
  marks: z.array(z.enum(MARKS)).max(0).nullish(),
  key: noValue,
});

export const RichTextNodeInput = z
  .discriminatedUnion('type', [TextNodeInput, PlaceholderNodeInput, HardBreakInput])
  .meta({ id: 'RichTextNodeInput' });
const ParagraphInput = z.strictObject({
  nodes: z.array(RichTextNodeInput).max(500).nullish(),
  list: z.enum(LIST_KINDS).nullish(),
});
export const RichTextBlockInput = z.strictObject({ paragraphs: z.array(ParagraphInput).max(200).nullish() });

export const LetterBlockInput = z.strictObject({
  type: z.enum(BLOCK_TYPES),
  blockId: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,64}$/)
    .nullish()
    .meta({ description: 'Kept when given; a new block gets one from the server.' }),
  content: RichTextBlockInput,
  sourcePassageId: cleanString(100).nullish(),
  sourceVersion: z.int().min(1).max(2_147_483_647).nullish(),
  edited: z
    .boolean()
    .nullish()
    .meta({ description: 'Ignored: the server decides by comparing with the passage version.' }),
});

export const LetterSectionInput = z.strictObject({
  sectionKey: z.enum(SECTION_KEYS),
  title: cleanString(200).nullish(),
  required: z.boolean().nullish(),
  locked: z.boolean().nullish(),
  blocks: z.array(LetterBlockInput).max(50).nullish(),
});

export type RichTextNodeInput = z.infer<typeof RichTextNodeInput>;
export type RichTextBlockInput = z.infer<typeof RichTextBlockInput>;
export type LetterBlockInput = z.infer<typeof LetterBlockInput>;
export type LetterSectionInput = z.infer<typeof LetterSectionInput>;
