import type { LetterLogo } from './letter-model';

/**
 * One PDF to render: a pdfmake document (plain data), its footer text and the logo, kept apart so a logo that fails to
 * render is left out.
 */
export interface PdfJob {
  doc: Record<string, unknown>;
  footer: { contact: string | null; legal: string | null; leftPt: number; rightPt: number };
  logo: LetterLogo | null;
  /** Fixed creation date (RFC 3339): identical input gives identical bytes. */
  creationDate: string;
}

/** The port: renders PDFs away from the event loop (a worker pool), with bounded concurrency. */
export interface PdfRenderer {
  render(job: PdfJob): Promise<Buffer>;
}

/** Where the logo goes: the first column of the letterhead (the renderer fills it). */
export const LOGO_BOX = { width: 170, height: 60 } as const;
