import type { PdfJob, PdfRenderer } from '../../src/rendering/pdf-renderer';

/**
 * A gate in front of the letters service's real PDF renderer. Open, it passes every render through; shut, each
 * render still starts at once but its result is kept until the gate opens, so a test knows the requests are
 * in flight together (`rendering()` counts the ones kept).
 */
export function gatedPdfs(): {
  wrap(real: PdfRenderer): PdfRenderer;
  shut(): void;
  open(): void;
  rendering(): number;
} {
  let shut = false;
  let kept: Array<() => void> = [];
  return {
    wrap: (real) => ({
      async render(job: PdfJob) {
        const pdf = real.render(job);
        // A failed render is the caller's to see once the gate opens, not an unhandled rejection meanwhile.
        pdf.catch(() => undefined);
        if (shut) await new Promise<void>((resolve) => kept.push(resolve));
        return pdf;
      },
    }),
    shut: () => void (shut = true),
    open() {
      shut = false;
      const waiting = kept;
      kept = [];
      for (const release of waiting) release();
    },
    rendering: () => kept.length,
  };
}
