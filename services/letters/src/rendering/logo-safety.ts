import { isCleanText } from '../shared/text';
import type { LetterLogo } from './letter-model';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MAX_LOGO_BYTES = 1024 * 1024;

/**
 * What an SVG logo may not contain: scripts and event handlers, foreign or embedded content, entities, and
 * any reference that is not to a fragment of the logo itself (an external or local file, a URL, an import).
 */
const HOSTILE_SVG = [
  /<\s*script\b/i,
  /<\s*(foreignObject|iframe|object|embed|audio|video|image|animate\w*|set)\b/i,
  /<!(DOCTYPE|ENTITY)/i,
  /\son[a-z]+\s*=/i,
  /@import/i,
  /javascript:/i,
];

/** Every `href`/`xlink:href` value and every `url(…)` must point at a fragment of the logo itself (`#id`). */
function refersOutside(svg: string): boolean {
  const references = [
    ...svg.matchAll(/(?:xlink:)?href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*))/gi),
    ...svg.matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*))\)/gi),
  ];
  return references.some((m) => !(m[1] ?? m[2] ?? m[3] ?? '').trim().startsWith('#'));
}

/**
 * A logo that can be rendered safely, or null: PNG by its signature; SVG only when it refers to nothing
 * outside itself and carries no active content. A hostile logo is left out of the letter, never rendered.
 */
export function safeLogo(bytes: Buffer): LetterLogo | null {
  if (bytes.length === 0 || bytes.length > MAX_LOGO_BYTES) return null;
  if (bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE))
    return { kind: 'png', data: bytes.toString('base64') };
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (!isCleanText(text) || !/<svg[\s>]/i.test(text)) return null;
  return HOSTILE_SVG.some((pattern) => pattern.test(text)) || refersOutside(text) ? null : { kind: 'svg', data: text };
}
