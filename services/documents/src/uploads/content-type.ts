/** How many leading bytes the spooler keeps for type detection. */
export const SNIFF_BYTES = 8192;

const SVG_PATTERN =
  /^(?:\s*<\?xml[^>]*\?>)?(?:\s*<!--[\s\S]*?-->)*(?:\s*<!DOCTYPE\s+svg[^>]*>)?(?:\s*<!--[\s\S]*?-->)*\s*<svg[\s>/]/i;

/** file-type does not detect SVG (it is text), so the first KB is checked for an XML/SVG prologue. */
function looksLikeSvg(head: Buffer): boolean {
  const kb = head.subarray(0, 1024);
  if (kb.includes(0)) return false;
  return SVG_PATTERN.test(kb.toString('utf8').replace(/^\uFEFF/, ''));
}

/** The real type of the bytes, detected from their start; null when nothing known matches. */
export async function detectContentType(head: Buffer): Promise<string | null> {
  if (head.length === 0) return null;
  // Before file-type, which would call an SVG with an XML prologue application/xml.
  if (looksLikeSvg(head)) return 'image/svg+xml';
  // file-type is ESM-only; a dynamic import loads it from CommonJS. Its core entry (buffers only) also
  // resolves under jest's require conditions, which the package root's exports do not offer.
  const { fileTypeFromBuffer } = await import('file-type/core');
  const detected = await fileTypeFromBuffer(head);
  return detected?.mime ?? null;
}
