// The chaos bench's steady load (chaos.mjs): submits with a document, uploads, letter saves and flag changes at a
// fixed rate through the load balancer, every request recorded with its start, latency and status.
import { randomUUID } from 'node:crypto';

const pdf = () => new Blob([Buffer.from(`%PDF-1.4\n${'x'.repeat(300)}\n%%EOF\n`)], { type: 'application/pdf' });

export function createLoad(base, { run, started = Date.now() }) {
  const requests = [];
  const writes = { submits: [], uploads: [], flags: [], letters: [] };
  let n = 0;

  async function call(kind, method, url, headers, body) {
    const t = Date.now() - started;
    const init = { method, headers: { ...headers }, signal: AbortSignal.timeout(30_000) };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const res = await fetch(`${base}${url}`, init).catch(() => null);
    const text = res ? await res.text().catch(() => '') : '';
    const status = res?.status ?? 0;
    const parsed = text.startsWith('{') ? JSON.parse(text) : null;
    // What answered a failure: a problem document's type (a service or the gateway), else the start of the body
    // (the load balancer's own page), or the transport error.
    const why =
      status >= 500 ? (parsed?.type ?? text.slice(0, 40).replace(/\s+/g, ' ')) : status === 0 ? 'no answer' : '';
    requests.push({ t, ms: Date.now() - started - t, status, kind, method, why });
    return { status, body: parsed };
  }

  const upload = (me) => {
    const form = new FormData();
    form.set('wizardId', 'intake');
    form.set('categoryId', 'diploma');
    form.set('localId', randomUUID());
    form.set('file', pdf(), 'diploma.pdf');
    return call('upload', 'POST', '/api/v1/uploads', me, form);
  };

  const ops = {
    async submit(i, t) {
      const me = { 'X-Subject': String(940_000_000 + i), 'X-Role': 'drafter' };
      const created = await call('submit', 'POST', '/api/v1/applications', me, { type: 'intake' });
      if (created.status !== 201) return;
      const doc = await upload(me);
      if (doc.status !== 201) return;
      const id = created.body.id;
      const submitted = await call('submit', 'POST', `/api/v1/applications/${id}/submit`, me, {
        diplomaHerkomst: 'handmatig',
        uren: 3000,
        documents: [{ categoryId: 'diploma', channel: 'digitaal', documentId: doc.body.documentId }],
      });
      if (submitted.status === 200) writes.submits.push({ t, id, referentie: submitted.body.referentie });
    },
    async upload(i, t) {
      const me = { 'X-Subject': String(950_000_000 + i), 'X-Role': 'drafter' };
      const doc = await upload(me);
      if (doc.status === 201) writes.uploads.push({ t, documentId: doc.body.documentId });
    },
    async letter(i, t) {
      const me = { 'X-Subject': '900000001', 'X-Role': 'drafter' };
      const current = await call('letter', 'GET', '/api/v1/brief', me);
      if (current.status !== 200) return;
      const saved = await call('letter', 'PUT', '/api/v1/brief', me, { sections: current.body.brief.sections });
      if (saved.status === 200) writes.letters.push({ t });
    },
    async flag(i, t) {
      const correlationId = `chaos-${run}-${i}`;
      const admin = { 'X-Subject': '900000003', 'X-Role': 'admin', 'X-Correlation-Id': correlationId };
      const res = await call('flag', 'PUT', '/api/v1/admin/flags/herregistratie-aanvragen', admin, {
        enabled: i % 2 === 0,
      });
      if (res.status === 204) writes.flags.push({ t, correlationId });
    },
  };
  const kinds = Object.keys(ops);

  /** Open loop: one operation every 1000 / rate ms whatever the answers do, until `stop`. */
  function start(rate) {
    const inFlight = new Set();
    const timer = setInterval(() => {
      const i = n++;
      const p = ops[kinds[i % kinds.length]](i, Date.now() - started).catch(() => undefined);
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    }, 1000 / rate);
    return async () => {
      clearInterval(timer);
      await Promise.all([...inFlight]);
    };
  }

  return { requests, writes, start, elapsed: () => Date.now() - started };
}
