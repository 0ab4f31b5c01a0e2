import { PROBLEM_TYPES, isProblemSlug } from './catalogue';

function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

/** The human-readable page behind a problem `type` (`/problems/<slug>`), or null for an unknown slug. */
export function problemPage(slug: string): string | null {
  if (!isProblemSlug(slug)) return null;
  const t = PROBLEM_TYPES[slug];
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(t.title)}</title></head>` +
    `<body><h1>${escapeHtml(t.title)}</h1><p>HTTP status ${t.status}. ` +
    `Problem type <code>/problems/${slug}</code>.</p>` +
    `<p>${escapeHtml(t.description)}</p><p>Every problem document carries a <code>correlationId</code>; ` +
    `quote it when you contact the service desk.</p></body></html>`
  );
}

export function problemIndex(): string {
  const items = Object.entries(PROBLEM_TYPES)
    .map(([slug, t]) => `<li><a href="/problems/${slug}">${slug}</a> (${t.status}): ${escapeHtml(t.title)}</li>`)
    .join('');
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Problem ` +
    `types</title></head><body><h1>Problem types</h1><ul>${items}</ul></body></html>`
  );
}
