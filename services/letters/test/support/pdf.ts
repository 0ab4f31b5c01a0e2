import { createHash } from 'node:crypto';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { deflateSync, crc32 } from 'node:zlib';

function extract<T>(op: 'text' | 'pages' | 'images', pdf: Buffer): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(path.join(__dirname, 'pdf-extract.mjs'), { workerData: { op, pdf } });
    worker.once('message', (value: T) => resolve(value));
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`pdf extraction exited with ${code}`))));
  });
}

/** The text of a PDF, per page, as a reader's text extraction (pdf-parse) sees it. */
export const pdfText = (pdf: Buffer) => extract<{ pages: string[]; text: string }>('text', pdf);
/** Page size in points of every page. */
export const pdfPageSizes = (pdf: Buffer) => extract<Array<{ width: number; height: number }>>('pages', pdf);
/** How many images the PDF embeds (a PNG logo is one; a drawn SVG is none). */
export const pdfImageCount = (pdf: Buffer) => extract<number>('images', pdf);

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real PNG of one colour (RGB, 8 bit), small enough for a logo. */
export function pngLogo(width = 40, height = 20): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x40)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
