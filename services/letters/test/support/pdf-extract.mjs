// Runs pdf-parse (pdf.js) on a worker thread: pdf.js loads its own worker with a dynamic import, which jest's
// module sandbox refuses; a worker thread is plain Node.
import { parentPort, workerData } from 'node:worker_threads';
import { PDFParse } from 'pdf-parse';

const { op, pdf } = workerData;
const parser = new PDFParse({ data: new Uint8Array(pdf) });
try {
  if (op === 'text') {
    const r = await parser.getText();
    parentPort.postMessage({ pages: r.pages.map((p) => p.text), text: r.text });
  } else if (op === 'pages') {
    const info = await parser.getInfo({ parsePageInfo: true });
    parentPort.postMessage(info.pages.map((p) => ({ width: Math.round(p.width), height: Math.round(p.height) })));
  } else {
    const images = await parser.getImage({ imageThreshold: 0, imageDataUrl: false, imageBuffer: false });
    parentPort.postMessage(images.pages.reduce((n, p) => n + p.images.length, 0));
  }
} finally {
  await parser.destroy();
}
