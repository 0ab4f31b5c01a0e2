import { eventually, uniqueSubject } from '@register/testkit';
import { gatedPdfs } from './support/pdf-gate';
import { pdfImageCount, pdfText, pngLogo } from './support/pdf';
import {
  admin,
  approver,
  beoordelaar,
  caseBrief,
  decideCase,
  drafter,
  portal,
  startNeighboursSystem,
  type NeighboursSystem,
} from './support/neighbours-system';

// Organisation letterheads: drafts, publish, rollback with an append-only history, and letters pinned to the
// version they were sent with; the letters rendered as the recipient gets them.
let system: NeighboursSystem;
const pdfGate = gatedPdfs();
beforeAll(async () => {
  system = await startNeighboursSystem({ pdf: pdfGate.wrap });
}, 120_000);
afterAll(async () => system?.close(), 60_000);

const base = '/api/v1/admin/org-template';
const draftOf = async (subOrgId: string) => (await portal(system, admin()).get(`${base}/${subOrgId}`)).body.draft;

/** An upload as the admin portal makes it (documents service, through the gateway). */
async function upload(
  wizardId: string,
  categoryId: string,
  file: Blob,
  name: string,
  as: Record<string, string> = admin(),
): Promise<string> {
  const form = new FormData();
  form.set('wizardId', wizardId);
  form.set('categoryId', categoryId);
  form.set('file', file, name);
  const res = await fetch(`${system.gateway.url}/api/v1/uploads`, { method: 'POST', headers: as, body: form });
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { documentId: string }).documentId;
}

describe('GET /api/v1/admin/org-templates and /org-template/{subOrgId}', () => {
  // Other tests here publish and roll back: each read is checked against the history it comes with.
  const shipped = {
    register: 'Register van Zorgprofessionals',
    'register-buitenland': 'Register van Zorgprofessionals – Buitenlandse diploma’s',
  };

  it(
    'when an admin lists them, then the two shipped sub-organisations, each with its ' + 'published version and name',
    async () => {
      const res = await portal(system, admin()).get('/api/v1/admin/org-templates');
      expect(res.status).toBe(200);
      expect(res.body.map((t: any) => t.subOrgId)).toEqual(['register', 'register-buitenland']);
      for (const listed of res.body) {
        const one = (await portal(system, admin()).get(`${base}/${listed.subOrgId}`)).body;
        expect(listed).toEqual({
          subOrgId: listed.subOrgId,
          orgName: one.history[0].template.orgName,
          publishedVersion: one.publishedVersion,
        });
        expect(one.history.at(-1)).toMatchObject({
          version: 1,
          template: { orgName: shipped[listed.subOrgId as keyof typeof shipped] },
        });
      }
    },
  );

  it(
    'when an admin reads one, then its draft (as the version it becomes), the ' +
      'history down to the shipped version 1 and the unsent briefs',
    async () => {
      await portal(system, drafter()).get('/api/v1/brief');
      const res = await portal(system, admin()).get(`${base}/register-buitenland`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['draft', 'history', 'publishedVersion', 'unsentBriefs']);
      const { draft, history, publishedVersion } = res.body;
      expect(draft).toMatchObject({ subOrgId: 'register-buitenland', version: publishedVersion + 1 });
      expect(Object.keys(draft)).toHaveLength(11);
      expect(history.map((h: any) => h.version)).toEqual(
        Array.from({ length: publishedVersion }, (_, i) => publishedVersion - i),
      );
      for (const h of history) {
        expect(h.publishedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        expect(Object.keys(h.template).sort()).toEqual(Object.keys(draft).sort());
        expect(h.template.version).toBe(h.version);
      }
      expect(history.at(-1).template).toMatchObject({
        subOrgId: 'register-buitenland',
        orgName: shipped['register-buitenland'],
        logoDocumentId: null,
        margins: { topMm: 30, rightMm: 20, bottomMm: 25, leftMm: 25 },
      });
      // Every letter uses the letterhead of `register` (ADR 0010), the shared working brief among them.
      expect(res.body.unsentBriefs).toBe(0);
      expect((await portal(system, admin()).get(`${base}/register`)).body.unsentBriefs).toBeGreaterThanOrEqual(1);
    },
  );

  it('when the sub-organisation is unknown, then a bare 404, also with an invalid body', async () => {
    for (const res of [
      await portal(system, admin()).get(`${base}/onbekend`),
      await portal(system, admin()).put(`${base}/onbekend`, { draft: { orgName: '' } }),
      await portal(system, admin()).post(`${base}/onbekend/publish`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.text).toBe('');
    }
  });
});

describe('PUT /api/v1/admin/org-template/{subOrgId}', () => {
  it('when the draft breaks a save rule, then 400 names the field and nothing changes', async () => {
    const draft = await draftOf('register-buitenland');
    const cases: Array<[unknown, string]> = [
      [{ draft: { ...draft, orgName: '   ' } }, 'draft.orgName'],
      [{ draft: { ...draft, margins: { ...draft.margins, topMm: 61 } } }, 'draft.margins.topMm'],
      [{ draft: { ...draft, margins: { ...draft.margins, leftMm: -1 } } }, 'draft.margins.leftMm'],
      [{ draft: { ...draft, margins: { ...draft.margins, rightMm: 2 ** 31 } } }, 'draft.margins.rightMm'],
      [{ draft: { ...draft, footerLegal: 'a\u0000b' } }, 'draft.footerLegal'],
      [{ draft: { ...draft, kleur: 'rood' } }, 'draft.kleur'],
      [{ draft: { ...draft, subOrgId: 'register' } }, 'draft.subOrgId'],
      [{ draft: { ...draft, logoDocumentId: 'bestaat-niet' } }, 'draft.logoDocumentId'],
    ];
    for (const [body, field] of cases) {
      const res = await portal(system, admin()).put(`${base}/register-buitenland`, body);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: any) => e.field)).toContain(field);
    }
    expect(await draftOf('register-buitenland')).toEqual(draft);
  });

  it('when the logo is an organisatie-logo upload, then it is accepted; another category is not', async () => {
    const draft = await draftOf('register-buitenland');
    const logo = await upload(
      'orgtemplate',
      'organisatie-logo',
      new Blob([new Uint8Array(pngLogo())], { type: 'image/png' }),
      'logo.png',
    );
    const saved = await portal(system, admin()).put(`${base}/register-buitenland`, {
      draft: { ...draft, logoDocumentId: logo },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.draft.logoDocumentId).toBe(logo);
    expect(saved.body.publishedVersion).toBe(1);
    const pdf = Buffer.from(
      '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type ' +
        '/Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
    );
    const other = await upload(
      'herregistratie',
      'werkervaring',
      new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }),
      'werk.pdf',
    );
    const refused = await portal(system, admin()).put(`${base}/register-buitenland`, {
      draft: { ...draft, logoDocumentId: other },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ field: 'draft.logoDocumentId', code: 'not-an-organisatie-logo' });
  });
});

describe('the logo on the letterhead (ADR 0010), fetched from the documents service', () => {
  /** A test letter of register-buitenland with this logo upload on its draft; the draft is put back afterwards. */
  async function testLetterWith(logo: string): Promise<Buffer> {
    const draft = await draftOf('register-buitenland');
    expect(
      (await portal(system, admin()).put(`${base}/register-buitenland`, { draft: { ...draft, logoDocumentId: logo } }))
        .status,
    ).toBe(200);
    try {
      const res = await portal(system, admin()).bytes('POST', `${base}/register-buitenland/test-letter`);
      expect(res.status).toBe(200);
      return res.body;
    } finally {
      await portal(system, admin()).put(`${base}/register-buitenland`, { draft });
    }
  }

  it('when the logo is a PNG upload, then the letter draws it: one image', async () => {
    // Each admin has one logo slot (multiple: false); a subject of its own keeps this test off the others' slot.
    const logo = await upload(
      'orgtemplate',
      'organisatie-logo',
      new Blob([new Uint8Array(pngLogo())], { type: 'image/png' }),
      'logo.png',
      admin(uniqueSubject()),
    );
    expect(await pdfImageCount(await testLetterWith(logo))).toBe(1);
  });

  it(
    'when the logo is a hostile SVG (script, handlers, an external reference), then ' +
      'the letter carries none of it: no image, no script, no link',
    async () => {
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
        width="40" height="20">
      <script>alert('logo-script')</script>
      <image xlink:href="http://169.254.169.254/latest/logo.png" width="40" height="20"/>
      <rect width="40" height="20" fill="#123456" onload="alert('logo-handler')"/>
    </svg>`;
      const logo = await upload(
        'orgtemplate',
        'organisatie-logo',
        new Blob([svg], { type: 'image/svg+xml' }),
        'logo.svg',
        admin(uniqueSubject()),
      );
      const pdf = await testLetterWith(logo);
      const raw = pdf.toString('latin1');
      for (const active of [
        'logo-script',
        'logo-handler',
        '169.254.169.254',
        '/JavaScript',
        '/JS ',
        '/URI',
        '/Launch',
        '/OpenAction',
      ])
        expect(raw).not.toContain(active);
      expect(await pdfImageCount(pdf)).toBe(0);
      expect((await pdfText(pdf)).text).toContain('Retouradres:');
    },
  );
});

describe('publish, rollback and letters pinned to their version', () => {
  it(
    'when a letter was sent and the letterhead is published anew and rolled back, ' +
      'then the sent letter keeps its version while unsent letters follow',
    async () => {
      const { referentie } = await decideCase(system, 'toekennen');
      await caseBrief(system, referentie);
      const q = `?referentie=${referentie}`;
      expect((await portal(system, drafter('900000041')).post(`/api/v1/brief/submit${q}`)).status).toBe(200);
      expect((await portal(system, approver('900000042')).post(`/api/v1/brief/approve${q}`)).status).toBe(200);
      const sent = await portal(system, drafter('900000041')).post(`/api/v1/brief/send${q}`);
      const sentVersion = sent.body.orgTemplate.version;
      const pdfOf = async (query: string) =>
        pdfText((await portal(system, drafter()).bytes('GET', `/api/v1/brief/pdf${query}`)).body);
      expect((await pdfOf(q)).text).toContain('drs. M. de Boer');

      const before = (await portal(system, admin()).get(`${base}/register`)).body;
      const draft = {
        ...before.draft,
        orgName: 'Register van Zorgprofessionals (nieuw)',
        signatureName: 'dr. P. Smit',
      };
      expect((await portal(system, admin()).put(`${base}/register`, { draft })).status).toBe(200);
      const published = await portal(system, admin()).post(`${base}/register/publish`);
      expect(published.status).toBe(200);
      expect(published.body).toEqual({
        version: before.publishedVersion + 1,
        affectedUnsentBriefs: before.unsentBriefs,
      });

      const sentNow = await pdfOf(q);
      expect(sentNow.text).toContain('drs. M. de Boer');
      expect(sentNow.text).not.toContain('dr. P. Smit');
      expect((await portal(system, drafter()).get(`/api/v1/brief${q}`)).body.orgTemplate).toMatchObject({
        version: sentVersion,
        signatureName: 'drs. M. de Boer',
      });
      const unsent = await pdfOf('');
      expect(unsent.text).toContain('dr. P. Smit');
      expect(unsent.text).toContain('Register van Zorgprofessionals (nieuw)');

      const rolledBack = await portal(system, admin()).post(`${base}/register/rollback/${sentVersion}`);
      expect(rolledBack.status).toBe(200);
      expect(rolledBack.body.publishedVersion).toBe(before.publishedVersion + 2);
      expect(rolledBack.body.history.map((h: any) => h.version)).toEqual([
        before.publishedVersion + 2,
        before.publishedVersion + 1,
        ...before.history.map((h: any) => h.version),
      ]);
      expect(rolledBack.body.history[0].template).toEqual({
        ...rolledBack.body.history.find((h: any) => h.version === sentVersion).template,
        version: before.publishedVersion + 2,
      });
      expect(rolledBack.body.draft).toEqual({
        ...rolledBack.body.history[0].template,
        version: before.publishedVersion + 3,
      });
      expect((await pdfOf('')).text).toContain('drs. M. de Boer');
      expect((await pdfOf(q)).text).toContain('drs. M. de Boer');
    },
  );

  it(
    'when letters are written, reviewed and sent, then unsentBriefs and ' +
      'affectedUnsentBriefs count exactly the letters of that sub-organisation not ' +
      'sent yet',
    async () => {
      const unsent = async (subOrgId: string) =>
        (await portal(system, admin()).get(`${base}/${subOrgId}`)).body.unsentBriefs;
      const start = await unsent('register');
      const { referentie } = await decideCase(system, 'toekennen');
      await caseBrief(system, referentie);
      expect(await unsent('register')).toBe(start + 1);
      const q = `?referentie=${referentie}`;
      expect((await portal(system, drafter('900000043')).post(`/api/v1/brief/submit${q}`)).status).toBe(200);
      expect((await portal(system, approver('900000044')).post(`/api/v1/brief/approve${q}`)).status).toBe(200);
      expect(await unsent('register')).toBe(start + 1);
      expect((await portal(system, drafter('900000043')).post(`/api/v1/brief/send${q}`)).status).toBe(200);
      expect(await unsent('register')).toBe(start);
      // Every letter uses the letterhead of `register` (ADR 0010): the other sub-organisation has none.
      expect(await unsent('register-buitenland')).toBe(0);
      expect((await portal(system, admin()).post(`${base}/register/publish`)).body.affectedUnsentBriefs).toBe(start);
      expect(
        (await portal(system, admin()).post(`${base}/register-buitenland/publish`)).body.affectedUnsentBriefs,
      ).toBe(0);
    },
  );

  it(
    'when the version to roll back to is unknown or not a version, then a bare 404 ' + 'and nothing is published',
    async () => {
      const before = (await portal(system, admin()).get(`${base}/register-buitenland`)).body.publishedVersion;
      for (const version of ['99', '0', 'abc', '1e3']) {
        const res = await portal(system, admin()).post(`${base}/register-buitenland/rollback/${version}`);
        expect(res.status).toBe(404);
        expect(res.text).toBe('');
      }
      expect((await portal(system, admin()).get(`${base}/register-buitenland`)).body.publishedVersion).toBe(before);
    },
  );
});

describe('the letter as HTML and PDF, and the test letter', () => {
  it(
    'when a drafter or approver asks for the preview, then text/html with a strict ' + 'policy; others are refused',
    async () => {
      const res = await portal(system, approver()).get('/api/v1/brief/preview');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(res.text).toContain('<html lang="nl">');
      expect(res.text).toContain('********101');
      expect(res.text).not.toContain('10000000101');
      expect((await portal(system, admin()).get('/api/v1/brief/preview')).status).toBe(403);
      expect((await portal(system, beoordelaar).get('/api/v1/brief/pdf')).status).toBe(403);
    },
  );

  it('when the letter is asked as PDF, then an A4 PDF that reads as the letter', async () => {
    const res = await portal(system, drafter()).bytes('GET', '/api/v1/brief/pdf');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const { text } = await pdfText(res.body);
    expect(text).toContain('Geachte A. de Vries,');
    expect(text).toContain('Pagina 1 van 1');
  });

  it(
    'when an admin asks for a test letter, then a sample letter on the current draft ' +
      '(a logo that cannot be fetched is left out)',
    async () => {
      const draft = await draftOf('register-buitenland');
      await portal(system, admin()).put(`${base}/register-buitenland`, {
        draft: { ...draft, signatureName: 'mr. T. Proef' },
      });
      const res = await portal(system, admin()).bytes('POST', `${base}/register-buitenland/test-letter`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      const { text } = await pdfText(res.body);
      expect(text).toContain('mr. T. Proef');
      expect(text).toContain('Geachte J. Voorbeeld,');
      expect(text).toContain('Retouradres: Postbus 90002, 2509 LS Den Haag');
      expect((await portal(system, admin()).bytes('POST', `${base}/onbekend/test-letter`)).status).toBe(404);
      expect((await portal(system, drafter()).bytes('POST', `${base}/register/test-letter`)).status).toBe(403);
    },
  );

  it(
    'when 20 PDFs are asked at once, then the other letter routes answer while all ' +
      '20 are being rendered, and all 20 arrive',
    async () => {
      // The renders start at once but their results wait for the gate: the reads provably overlap all 20.
      pdfGate.shut();
      let arrived = 0;
      const pdfs = Promise.all(
        Array.from({ length: 20 }, () =>
          portal(system, drafter())
            .bytes('GET', '/api/v1/brief/pdf')
            .then((r) => ((arrived += 1), r)),
        ),
      );
      await eventually(async () => (pdfGate.rendering() === 20 ? true : undefined));
      const reads = await Promise.all(Array.from({ length: 10 }, () => portal(system, drafter()).get('/api/v1/brief')));
      expect(reads.map((r) => r.status)).toEqual(Array.from({ length: 10 }, () => 200));
      expect([arrived, pdfGate.rendering()]).toEqual([0, 20]);
      pdfGate.open();
      const answers = await pdfs;
      expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => 200));
      expect(answers.every((r) => r.body.subarray(0, 5).toString() === '%PDF-')).toBe(true);
    },
  );
});
