// A PDF worker thread: pdfmake with fonts embedded from its virtual file system and no access to URLs or local
// files (CVE-2026-26801). Only packages are imported here: the file also runs as TypeScript source (tests).
import { parentPort } from 'node:worker_threads';
import pdfmake from 'pdfmake';
import vfs from 'pdfmake/build/vfs_fonts.js';

interface Job {
  doc: Record<string, unknown> & { content: Array<{ columns?: unknown[] }> };
  footer: { contact: string | null; legal: string | null; leftPt: number; rightPt: number };
  logo: { kind: 'png' | 'svg'; data: string } | null;
  creationDate: string;
}

for (const [name, data] of Object.entries(vfs)) pdfmake.virtualfs.writeFileSync(name, Buffer.from(data, 'base64'));
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy(() => false);
pdfmake.setFonts({
  Roboto: {
    normal: 'Roboto-Regular.ttf',
    bold: 'Roboto-Medium.ttf',
    italics: 'Roboto-Italic.ttf',
    bolditalics: 'Roboto-MediumItalic.ttf',
  },
});
// pdfmake and its SVG converter warn on the console; a failed render is reported to the parent instead.
globalThis.console.warn = () => undefined;

const LOGO = { width: 170, height: 60 };

function logoNode(logo: NonNullable<Job['logo']>): Record<string, unknown> {
  const box = { width: LOGO.width, fit: [LOGO.width, LOGO.height] };
  // No image callback: an SVG <image> (refused before it gets here) could otherwise name a local file.
  if (logo.kind === 'svg') return { ...box, svg: logo.data, options: { imageCallback: () => '' } };
  return { ...box, image: `data:image/png;base64,${logo.data}` };
}

function documentOf(job: Job, withLogo: boolean): Record<string, unknown> {
  const doc = structuredClone(job.doc);
  const letterhead = doc.content[0]?.columns;
  if (withLogo && job.logo && letterhead) letterhead[0] = logoNode(job.logo);
  const created = new Date(job.creationDate);
  const { contact, legal, leftPt, rightPt } = job.footer;
  return {
    ...doc,
    info: { ...(doc['info'] as object), creationDate: created, modDate: created },
    footer: (current: number, count: number) => ({
      margin: [leftPt, 14, rightPt, 0],
      columns: [
        { width: '*', stack: [contact ?? '', legal ?? ''], fontSize: 7, color: '#333333' },
        { width: 80, text: `Pagina ${current} van ${count}`, alignment: 'right', fontSize: 8 },
      ],
    }),
  };
}

async function render(job: Job): Promise<Buffer> {
  try {
    return await pdfmake.createPdf(documentOf(job, true)).getBuffer();
  } catch (err) {
    // A logo that cannot be drawn is left out rather than failing the letter.
    if (!job.logo) throw err;
    return pdfmake.createPdf(documentOf(job, false)).getBuffer();
  }
}

parentPort?.on('message', (message: { id: number; job: Job }) => {
  render(message.job).then(
    (pdf) => parentPort?.postMessage({ id: message.id, ok: true, pdf }),
    (err: unknown) =>
      parentPort?.postMessage({ id: message.id, ok: false, error: err instanceof Error ? err.message : String(err) }),
  );
});
