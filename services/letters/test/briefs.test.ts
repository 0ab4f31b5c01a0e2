import { asUser, practitioner } from '@register/testkit';
import { startLetters } from './support/harness';
import { approver, beoordelaar, caseBrief, decideCase, drafter, portal, startWorld, type World } from './support/world';

// The letter workflow as the portals drive it: through the gateway, letters on real Postgres and NATS, its
// neighbours (applications, documents, reference) as their own processes.
let world: World;
beforeAll(async () => {
  world = await startWorld();
}, 120_000);
afterAll(async () => world?.close(), 60_000);

const url = (path: string, referentie: string) => `/api/v1/brief${path}?referentie=${encodeURIComponent(referentie)}`;

describe('GET /api/v1/brief', () => {
  it('when no referentie is given, then the shared working brief about the demo case of 900000001, every field present, the register number masked', async () => {
    const res = await portal(world, drafter()).get('/api/v1/brief');
    expect(res.status).toBe(200);
    const view = res.body;
    expect(Object.keys(view).sort()).toEqual(['availablePassages', 'brief', 'caseContext', 'decisions', 'orgTemplate']);
    expect(view.caseContext).toEqual({ zorgverlenerNaam: 'A. de Vries', registerNummer: '********101', beroep: 'arts', aanvraagReferentie: null });
    expect(res.text).not.toContain('10000000101');
    expect(Object.keys(view.brief).sort()).toEqual(['beroep', 'briefId', 'drafterId', 'placeholders', 'sections', 'status', 'templateId']);
    expect(view.brief).toMatchObject({ beroep: 'arts', templateId: 'register', drafterId: null });
    expect(view.brief.status).toEqual({ tag: 'concept', submittedBy: null, submittedAt: null, approvedBy: null, approvedAt: null, rejectedBy: null, rejectedAt: null, comments: null, sentAt: null });
    expect(view.brief.sections.map((s: any) => [s.sectionKey, s.locked, s.required])).toEqual([
      ['kenmerk', true, true], ['aanhef', false, true], ['kern', false, true], ['besluit', false, true], ['bezwaar', true, true], ['afsluiting', false, true],
    ]);
    expect(view.brief.placeholders.map((p: any) => p.key)).toEqual(expect.arrayContaining(['zorgverlener.naam', 'zorgverlener.registerNummer', 'beroep.naam', 'aanvraag.referentie', 'besluit.datum', 'besluit.toelichting', 'datum.vandaag', 'termijn.weken']));
    expect(view.brief.placeholders.find((p: any) => p.key === 'termijn.weken')).toEqual({ key: 'termijn.weken', label: 'Termijn (weken)', autoResolvable: false, fillable: true, deprecated: false });
    expect(view.brief.placeholders.filter((p: any) => p.deprecated)).toHaveLength(1);
    expect(view.orgTemplate).toMatchObject({ subOrgId: 'register', orgName: 'Register van Zorgprofessionals', version: 1, margins: { topMm: 25, rightMm: 20, bottomMm: 25, leftMm: 25 } });
  });

  it('when the brief is of an arts, then at least 20 passages: general ones and those of arts only, covering every section, besluit and three reasons', async () => {
    const passages: any[] = (await portal(world, drafter()).get('/api/v1/brief')).body.availablePassages;
    expect(passages.length).toBeGreaterThanOrEqual(20);
    expect(passages.every((p) => p.scope === 'algemeen' || p.beroep === 'arts')).toBe(true);
    expect(passages.some((p) => p.scope === 'beroep')).toBe(true);
    expect(new Set(passages.map((p) => p.sectionKey))).toEqual(new Set(['kenmerk', 'aanhef', 'kern', 'besluit', 'bezwaar', 'afsluiting']));
    expect(new Set(passages.map((p) => p.besluit).filter(Boolean))).toEqual(new Set(['toekennen', 'afwijzen', 'buiten-behandeling']));
    expect(new Set(passages.filter((p) => p.besluit === 'afwijzen').map((p) => p.reason).filter(Boolean)).size).toBeGreaterThanOrEqual(3);
    expect(passages.every((p) => p.version >= 1 && Object.keys(p).length === 10)).toBe(true);
  });

  it('when each kind of caller reads it, then decisions are computed for that caller', async () => {
    const decisions = async (headers: Record<string, string>) => (await portal(world, headers).get('/api/v1/brief')).body.decisions;
    expect(await decisions(drafter())).toEqual({ canEdit: true, canApprove: false, canReject: false, canSend: false, canRevealRegisterNummer: true });
    expect(await decisions(approver())).toEqual({ canEdit: false, canApprove: false, canReject: false, canSend: false, canRevealRegisterNummer: false });
    expect(await decisions(beoordelaar)).toEqual({ canEdit: false, canApprove: false, canReject: false, canSend: false, canRevealRegisterNummer: false });
  });

  it('when the referentie is unknown, then a bare 404; a NUL in it is 400', async () => {
    const res = await portal(world, drafter()).get('/api/v1/brief?referentie=AV-1999-000000');
    expect(res.status).toBe(404);
    expect(res.text).toBe('');
    expect((await portal(world, drafter()).get('/api/v1/brief?referentie=AV%00')).status).toBe(400);
    expect((await portal(world, drafter()).get('/api/v1/brief?referentie=a&referentie=b')).status).toBe(400);
  });
});

describe('the four-eyes workflow (submit, approve, reject, send)', () => {
  it('when a drafter submits and another person approves, then it can be sent, and every step is refused to the wrong person (403) or in the wrong state (409)', async () => {
    const { referentie } = await decideCase(world, 'toekennen');
    const mine = portal(world, drafter('900000011'));
    const view = (await caseBrief(world, referentie)).body;

    expect((await portal(world, beoordelaar).post(url('/send', referentie))).status).toBe(409);
    expect((await portal(world, approver('900000012')).post(url('/approve', referentie))).status).toBe(409);

    const submitted = await mine.post(url('/submit', referentie));
    expect(submitted.status).toBe(200);
    expect(submitted.body.brief.status).toMatchObject({ tag: 'ter-goedkeuring', submittedBy: '900000011', submittedAt: expect.stringMatching(/Z$/) });
    expect(submitted.body.brief.drafterId).toBe('900000011');
    expect(submitted.body.brief.sections).toEqual(view.brief.sections);
    expect(submitted.body.decisions.canEdit).toBe(false);

    expect((await mine.put(url('', referentie), { sections: view.brief.sections })).status).toBe(409);
    expect((await mine.post(url('/submit', referentie))).status).toBe(409);
    expect((await mine.post(url('/approve', referentie))).status).toBe(403);
    const ownApproval = await portal(world, approver('900000011')).post(url('/approve', referentie));
    expect(ownApproval.status).toBe(403);
    expect(ownApproval.body.type).toBe('/problems/forbidden');
    expect((await portal(world, approver('900000011')).get(url('', referentie))).body.decisions).toMatchObject({ canApprove: false, canReject: false });

    const other = portal(world, approver('900000012'));
    expect((await other.get(url('', referentie))).body.decisions).toMatchObject({ canApprove: true, canReject: true, canSend: false });
    const approved = await other.post(url('/approve', referentie));
    expect(approved.status).toBe(200);
    expect(approved.body.brief.status).toMatchObject({ tag: 'goedgekeurd', approvedBy: '900000012', approvedAt: expect.stringMatching(/Z$/) });
    expect(approved.body.decisions).toMatchObject({ canApprove: false, canSend: true });
    expect((await other.post(url('/reject', referentie), { comments: 'te laat' })).status).toBe(409);

    const sent = await portal(world, beoordelaar).post(url('/send', referentie));
    expect(sent.status).toBe(200);
    expect(sent.body.brief.status).toMatchObject({ tag: 'verzonden', sentAt: expect.stringMatching(/Z$/) });
    expect(sent.body.orgTemplate.version).toBe(1);
    expect(sent.body.decisions).toEqual({ canEdit: false, canApprove: false, canReject: false, canSend: false, canRevealRegisterNummer: false });
    expect((await other.post(url('/send', referentie))).status).toBe(409);
    expect((await mine.put(url('', referentie), { sections: view.brief.sections })).status).toBe(409);
  });

  it('when an approver rejects with comments, then the drafter sees them, may edit again and resubmit', async () => {
    const { referentie } = await decideCase(world, 'afwijzen');
    const mine = portal(world, drafter('900000021'));
    const sections = (await caseBrief(world, referentie)).body.brief.sections;
    expect((await mine.post(url('/submit', referentie))).status).toBe(200);
    const rejected = await portal(world, approver('900000022')).post(url('/reject', referentie), { comments: 'Noem de reden concreter.' });
    expect(rejected.status).toBe(200);
    expect(rejected.body.brief.status).toMatchObject({ tag: 'afgekeurd', rejectedBy: '900000022', rejectedAt: expect.stringMatching(/Z$/), comments: 'Noem de reden concreter.' });

    sections[3].blocks[0].content.paragraphs.push({ nodes: [{ type: 'text', text: 'U heeft 1200 uur gewerkt; nodig is 2080 uur.', marks: ['bold'], key: null }], list: null });
    const edited = await mine.put(url('', referentie), { sections });
    expect(edited.status).toBe(200);
    expect(edited.body.brief.sections[3].blocks[0]).toMatchObject({ sourcePassageId: 'besluit-afwijzen', sourceVersion: 1, edited: true });
    const resubmitted = await mine.post(url('/submit', referentie));
    expect(resubmitted.body.brief.status).toMatchObject({ tag: 'ter-goedkeuring', rejectedBy: null, comments: null });
    expect(resubmitted.body.brief.sections[3].blocks[0].content.paragraphs.at(-1).nodes[0].text).toBe('U heeft 1200 uur gewerkt; nodig is 2080 uur.');
  });

  it('when two approvers approve at the same moment, then one gets 200 and the other 409', async () => {
    const { referentie } = await decideCase(world, 'toekennen');
    await caseBrief(world, referentie);
    expect((await portal(world, drafter('900000031')).post(url('/submit', referentie))).status).toBe(200);
    const [a, b] = await Promise.all([portal(world, approver('900000032')).post(url('/approve', referentie)), portal(world, approver('900000033')).post(url('/approve', referentie))]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect((await portal(world, drafter()).get(url('', referentie))).body.brief.status.approvedBy).toBe(a.status === 200 ? '900000032' : '900000033');
  });

  it('when two replicas of letters take an approval each at the same moment, then the row lock lets one through and the other gets 409', async () => {
    // A second letters process on the same database: only PostgreSQL's row lock stands between the two.
    const replica = await startLetters({ database: { url: world.letters.databaseUrl, drop: async () => undefined }, applicationsUrl: world.applications.url, natsUrl: world.nats });
    try {
      const { referentie } = await decideCase(world, 'afwijzen');
      await caseBrief(world, referentie);
      expect((await portal(world, drafter('900000034')).post(url('/submit', referentie))).status).toBe(200);
      const direct = (base: string, subject: string) =>
        fetch(`${base}${url('/approve', referentie)}`, { method: 'POST', headers: asUser(practitioner(subject, 'approver')) }).then((r) => r.status);
      const statuses = await Promise.all([direct(world.letters.url, '900000035'), direct(replica.url, '900000036')]);
      expect(statuses.sort()).toEqual([200, 409]);
    } finally {
      await replica.close();
    }
  });

  it('when a letter is reset, then it is a fresh concept of the default passages, whoever asks and in whatever state', async () => {
    const { referentie } = await decideCase(world, 'buiten-behandeling');
    const original = (await caseBrief(world, referentie)).body.brief.sections;
    const changed = JSON.parse(JSON.stringify(original));
    changed[2].blocks = [];
    expect((await portal(world, drafter()).put(url('', referentie), { sections: changed })).status).toBe(200);
    expect((await portal(world, drafter()).post(url('/submit', referentie))).status).toBe(200);
    const reset = await portal(world, beoordelaar).post(url('/reset', referentie));
    expect(reset.status).toBe(200);
    expect(reset.body.brief.status.tag).toBe('concept');
    expect(reset.body.brief.drafterId).toBeNull();
    const source = (s: any[]) => s.map((x) => x.blocks.map((b: any) => [b.sourcePassageId, b.sourceVersion, b.edited]));
    expect(source(reset.body.brief.sections)).toEqual(source(original));
    expect(source(reset.body.brief.sections)[2]).toEqual([['kern-buiten-behandeling', 1, false]]);
  });
});

describe('PUT /api/v1/brief (content rules and hostile input)', () => {
  async function fresh() {
    const { referentie } = await decideCase(world, 'afwijzen');
    return { referentie, sections: (await caseBrief(world, referentie)).body.brief.sections };
  }

  it('when the body breaks a rule, then 400 names the offending node and nothing is written', async () => {
    const { referentie, sections } = await fresh();
    const me = portal(world, drafter());
    const before = (await me.get(url('', referentie))).text;
    const locked = JSON.parse(JSON.stringify(sections));
    locked[4].blocks[0].content.paragraphs[0].nodes[0].text = 'Geen bezwaar mogelijk.';
    const unknownKey = JSON.parse(JSON.stringify(sections));
    unknownKey[2].blocks[0].content.paragraphs[1].nodes = [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }, { type: 'hardBreak' }, { type: 'placeholder', key: 'zorgverlener.bsn' }];
    const cases: Array<[unknown, string]> = [
      [{ sections: locked }, 'sections[4].blocks[0].content.paragraphs[0].nodes[0].text'],
      [{ sections: unknownKey }, 'sections[2].blocks[0].content.paragraphs[1].nodes[3].key'],
      [{ sections: sections.slice(0, 5) }, 'sections'],
      [{}, 'sections'],
      [{ sections: [{ ...sections[0], sectionKey: 'ps' }, ...sections.slice(1)] }, 'sections[0].sectionKey'],
    ];
    for (const [body, field] of cases) {
      const res = await me.put(url('', referentie), body);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body.errors.map((e: any) => e.field)).toContain(field);
    }
    expect((await me.get(url('', referentie))).text).toBe(before);
  });

  it('when the body carries a NUL, an unpaired surrogate, a huge number, deep nesting or broken JSON, then 400 and never a 5xx', async () => {
    const { referentie, sections } = await fresh();
    const me = portal(world, drafter());
    const json = JSON.stringify({ sections });
    const text = sections[2].blocks[0].content.paragraphs[0].nodes[0].text as string;
    const bodies = [
      json.replace(JSON.stringify(text), '"a\\u0000b"'),
      json.replace(JSON.stringify(text), '"a\\ud800b"'),
      json.replace('"sourceVersion":1', '"sourceVersion":99999999999999999999'),
      `{"sections":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
      `{"sections":[{"sectionKey":"kern","blocks":[{"type":"tekst","content":{"paragraphs":[{"nodes":[${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}]}]}}]}]}`,
      '{"sections": [',
      `{"sections":[],"\\u0000":1}`,
    ];
    for (const body of bodies) {
      const res = await me.put(url('', referentie), body);
      expect(res.status).toBe(400);
    }
  });

  it('when a fillable placeholder is filled in and a passage block added from the library, then both are kept; the caller cannot claim edited', async () => {
    const { referentie, sections } = await fresh();
    const passages: any[] = (await portal(world, drafter()).get(url('', referentie))).body.availablePassages;
    const reason = passages.find((p) => p.passageId === 'reden-onvolledige-aanvraag');
    sections[3].blocks.push({ type: 'passage', sourcePassageId: reason.passageId, sourceVersion: reason.version, edited: true, content: reason.content });
    sections[3].blocks[1].content.paragraphs[0].nodes = sections[3].blocks[1].content.paragraphs[0].nodes.map((n: any) => (n.key === 'termijn.weken' ? { ...n, text: '4' } : n));
    const saved = await portal(world, drafter()).put(url('', referentie), { sections });
    expect(saved.status).toBe(200);
    const block = saved.body.brief.sections[3].blocks[1];
    expect(block).toMatchObject({ type: 'passage', sourcePassageId: 'reden-onvolledige-aanvraag', sourceVersion: 1, edited: true, blockId: expect.any(String) });
    expect(block.content.paragraphs[0].nodes.find((n: any) => n.key === 'termijn.weken').text).toBe('4');
    const html = await portal(world, drafter()).get(url('/preview', referentie));
    expect(html.text).toContain('binnen 4 weken aan te vullen');
  });
});
