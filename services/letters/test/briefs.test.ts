import { createHash } from 'node:crypto';
import { asUser, holdLock, practitioner } from '@register/testkit';
import { startLettersSystem } from './support/system';
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

// The letter workflow as the portals drive it: through the gateway, letters on real Postgres and NATS, its
// neighbours (applications, documents, reference) as their own processes.
let system: NeighboursSystem;
beforeAll(async () => {
  system = await startNeighboursSystem();
}, 120_000);
afterAll(async () => system?.close(), 60_000);

const url = (path: string, referentie: string) => `/api/v1/brief${path}?referentie=${encodeURIComponent(referentie)}`;

describe('GET /api/v1/brief', () => {
  it(
    'when no referentie is given, then the shared working brief about the demo case ' +
      'of 900000001, every field present, the register number masked',
    async () => {
      const res = await portal(system, drafter()).get('/api/v1/brief');
      expect(res.status).toBe(200);
      const view = res.body;
      expect(Object.keys(view).sort()).toEqual([
        'availablePassages',
        'brief',
        'caseContext',
        'decisions',
        'orgTemplate',
      ]);
      expect(view.caseContext).toEqual({
        zorgverlenerNaam: 'A. de Vries',
        registerNummer: '********101',
        beroep: 'arts',
        aanvraagReferentie: null,
      });
      expect(res.text).not.toContain('10000000101');
      expect(Object.keys(view.brief).sort()).toEqual([
        'beroep',
        'briefId',
        'drafterId',
        'placeholders',
        'sections',
        'status',
        'templateId',
      ]);
      expect(view.brief).toMatchObject({ beroep: 'arts', templateId: 'register', drafterId: null });
      expect(view.brief.status).toEqual({
        tag: 'concept',
        submittedBy: null,
        submittedAt: null,
        approvedBy: null,
        approvedAt: null,
        rejectedBy: null,
        rejectedAt: null,
        comments: null,
        sentAt: null,
      });
      expect(view.brief.sections.map((s: any) => [s.sectionKey, s.locked, s.required])).toEqual([
        ['kenmerk', true, true],
        ['aanhef', false, true],
        ['kern', false, true],
        ['besluit', false, true],
        ['bezwaar', true, true],
        ['afsluiting', false, true],
      ]);
      expect(view.brief.placeholders.map((p: any) => p.key)).toEqual(
        expect.arrayContaining([
          'zorgverlener.naam',
          'zorgverlener.registerNummer',
          'beroep.naam',
          'aanvraag.referentie',
          'besluit.datum',
          'besluit.toelichting',
          'datum.vandaag',
          'termijn.weken',
        ]),
      );
      expect(view.brief.placeholders.find((p: any) => p.key === 'termijn.weken')).toEqual({
        key: 'termijn.weken',
        label: 'Termijn (weken)',
        autoResolvable: false,
        fillable: true,
        deprecated: false,
      });
      expect(view.brief.placeholders.filter((p: any) => p.deprecated)).toHaveLength(1);
      expect(view.orgTemplate).toMatchObject({
        subOrgId: 'register',
        orgName: 'Register van Zorgprofessionals',
        version: 1,
        margins: { topMm: 25, rightMm: 20, bottomMm: 25, leftMm: 25 },
      });
    },
  );

  it(
    'when the brief is of an arts, then at least 20 passages: general ones and those ' +
      'of arts only, covering every section, besluit and three reasons',
    async () => {
      const passages: any[] = (await portal(system, drafter()).get('/api/v1/brief')).body.availablePassages;
      expect(passages.length).toBeGreaterThanOrEqual(20);
      expect(passages.every((p) => p.scope === 'algemeen' || p.beroep === 'arts')).toBe(true);
      expect(passages.some((p) => p.scope === 'beroep')).toBe(true);
      expect(new Set(passages.map((p) => p.sectionKey))).toEqual(
        new Set(['kenmerk', 'aanhef', 'kern', 'besluit', 'bezwaar', 'afsluiting']),
      );
      expect(new Set(passages.map((p) => p.besluit).filter(Boolean))).toEqual(
        new Set(['toekennen', 'afwijzen', 'buiten-behandeling']),
      );
      expect(
        new Set(
          passages
            .filter((p) => p.besluit === 'afwijzen')
            .map((p) => p.reason)
            .filter(Boolean),
        ).size,
      ).toBeGreaterThanOrEqual(3);
      expect(passages.every((p) => p.version >= 1 && Object.keys(p).length === 10)).toBe(true);
    },
  );

  it('when each kind of caller reads it, then decisions are computed for that caller', async () => {
    const decisions = async (headers: Record<string, string>) =>
      (await portal(system, headers).get('/api/v1/brief')).body.decisions;
    expect(await decisions(drafter())).toEqual({
      canEdit: true,
      canApprove: false,
      canReject: false,
      canSend: false,
      canRevealRegisterNummer: true,
    });
    expect(await decisions(approver())).toEqual({
      canEdit: false,
      canApprove: false,
      canReject: false,
      canSend: false,
      canRevealRegisterNummer: false,
    });
    expect(await decisions(beoordelaar)).toEqual({
      canEdit: false,
      canApprove: false,
      canReject: false,
      canSend: false,
      canRevealRegisterNummer: false,
    });
  });

  it(
    'when a letter is read again and saved unchanged, then each answer is the view ' +
      'it was (the save raises the revision), with the ETag Express makes of those ' +
      'bytes; a matching If-None-Match is 304',
    async () => {
      const { referentie } = await decideCase(system, 'toekennen');
      await caseBrief(system, referentie);
      const at = `/api/v1/brief?referentie=${referentie}`;
      // Express's weak ETag of a body (the etag package): length in hex and the SHA-1, as res.json would send it.
      const etagOf = (text: string) => {
        const bytes = Buffer.from(text);
        return `W/"${bytes.length.toString(16)}-${createHash('sha1').update(bytes).digest('base64').slice(0, 27)}"`;
      };
      const stored = () =>
        system.letters.db
          .selectFrom('brief')
          .select(['revision', 'sections'])
          .where('referentie', '=', referentie)
          .executeTakeFirstOrThrow();
      const first = await portal(system, drafter()).get(at);
      const again = await portal(system, drafter()).get(at);
      const before = await stored();
      const saved = await portal(system, drafter()).put(at, { sections: first.body.brief.sections });
      // Saved unchanged: the content stays as stored (not written again), the revision still rises.
      const after = await stored();
      expect(BigInt(after.revision)).toBe(BigInt(before.revision) + 1n);
      expect(after.sections).toEqual(before.sections);
      const edited = structuredClone(first.body.brief.sections);
      edited[2].blocks[0].content.paragraphs[0].nodes[0].text = 'Anders verwoord.';
      const changed = await portal(system, drafter()).put(at, { sections: edited });
      const approverView = await portal(system, approver()).get(at);

      expect([first.status, again.status, saved.status, changed.status, approverView.status]).toEqual([
        200, 200, 200, 200, 200,
      ]);
      expect(again.text === first.text).toBe(true);
      // The same letter; its keys in another order (read back from jsonb before, as written now).
      expect(saved.body).toEqual(first.body);
      expect(changed.body.brief.sections[2].blocks[0].content.paragraphs[0].nodes[0].text).toBe('Anders verwoord.');
      expect(approverView.body.decisions.canEdit).toBe(false);
      expect(approverView.body.brief.sections).toEqual(changed.body.brief.sections);
      for (const res of [first, again, saved, changed, approverView]) {
        expect(res.headers.get('etag')).toBe(etagOf(res.text));
        expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      }
      expect((await portal(system, drafter()).get(at, { 'if-none-match': changed.headers.get('etag')! })).status).toBe(
        304,
      );
    },
  );

  it('when the referentie is unknown, then a bare 404; a NUL in it is 400', async () => {
    const res = await portal(system, drafter()).get('/api/v1/brief?referentie=AV-1999-000000');
    expect(res.status).toBe(404);
    expect(res.text).toBe('');
    expect((await portal(system, drafter()).get('/api/v1/brief?referentie=AV%00')).status).toBe(400);
    expect((await portal(system, drafter()).get('/api/v1/brief?referentie=a&referentie=b')).status).toBe(400);
  });

  it(
    'when any brief route names an unknown referentie, then a bare 404 for a caller ' + 'who may use that route',
    async () => {
      const q = '?referentie=AV-1999-000404';
      const calls: Array<[string, Promise<{ status: number; text: string }>]> = [
        ['GET', portal(system, drafter()).get(`/api/v1/brief${q}`)],
        ['PUT', portal(system, drafter()).put(`/api/v1/brief${q}`, { sections: [] })],
        ['submit', portal(system, drafter()).post(`/api/v1/brief/submit${q}`)],
        ['approve', portal(system, approver()).post(`/api/v1/brief/approve${q}`)],
        ['reject', portal(system, approver()).post(`/api/v1/brief/reject${q}`, { comments: 'x' })],
        ['send', portal(system, admin()).post(`/api/v1/brief/send${q}`)],
        ['reset', portal(system, admin()).post(`/api/v1/brief/reset${q}`)],
        [
          'reveal',
          portal(system, drafter()).post(`/api/v1/brief/reveal-registernummer${q}`, undefined, { 'X-Step-Up': 'true' }),
        ],
        ['preview', portal(system, approver()).get(`/api/v1/brief/preview${q}`)],
        ['pdf', portal(system, drafter()).get(`/api/v1/brief/pdf${q}`)],
      ];
      const answers = await Promise.all(
        calls.map(async ([name, pending]) => [name, (await pending).status, (await pending).text] as const),
      );
      expect(answers).toEqual(calls.map(([name]) => [name, 404, '']));
    },
  );
});

describe('the four-eyes workflow (submit, approve, reject, send)', () => {
  it(
    'when a drafter submits and another person approves, then it can be sent, and ' +
      'every step is refused to the wrong person (403) or in the wrong state (409)',
    async () => {
      const { referentie } = await decideCase(system, 'toekennen');
      const mine = portal(system, drafter('900000011'));
      const view = (await caseBrief(system, referentie)).body;

      expect((await portal(system, admin()).post(url('/send', referentie))).status).toBe(409);
      // A case's letter is staff data: a case handler holds no letter capability (ADR 0010).
      expect((await portal(system, beoordelaar).post(url('/send', referentie))).status).toBe(403);
      expect((await portal(system, approver('900000012')).post(url('/approve', referentie))).status).toBe(409);

      const submitted = await mine.post(url('/submit', referentie));
      expect(submitted.status).toBe(200);
      expect(submitted.body.brief.status).toMatchObject({
        tag: 'ter-goedkeuring',
        submittedBy: '900000011',
        submittedAt: expect.stringMatching(/Z$/),
      });
      expect(submitted.body.brief.drafterId).toBe('900000011');
      expect(submitted.body.brief.sections).toEqual(view.brief.sections);
      expect(submitted.body.decisions.canEdit).toBe(false);

      expect((await mine.put(url('', referentie), { sections: view.brief.sections })).status).toBe(409);
      expect((await mine.post(url('/submit', referentie))).status).toBe(409);
      expect((await mine.post(url('/approve', referentie))).status).toBe(403);
      const ownApproval = await portal(system, approver('900000011')).post(url('/approve', referentie));
      expect(ownApproval.status).toBe(403);
      expect(ownApproval.body.type).toBe('/problems/forbidden');
      expect((await portal(system, approver('900000011')).get(url('', referentie))).body.decisions).toMatchObject({
        canApprove: false,
        canReject: false,
      });

      const other = portal(system, approver('900000012'));
      expect((await other.get(url('', referentie))).body.decisions).toMatchObject({
        canApprove: true,
        canReject: true,
        canSend: false,
      });
      const approved = await other.post(url('/approve', referentie));
      expect(approved.status).toBe(200);
      expect(approved.body.brief.status).toMatchObject({
        tag: 'goedgekeurd',
        approvedBy: '900000012',
        approvedAt: expect.stringMatching(/Z$/),
      });
      expect(approved.body.decisions).toMatchObject({ canApprove: false, canSend: true });
      expect((await other.post(url('/reject', referentie), { comments: 'te laat' })).status).toBe(409);

      const sent = await portal(system, admin()).post(url('/send', referentie));
      expect(sent.status).toBe(200);
      expect(sent.body.brief.status).toMatchObject({ tag: 'verzonden', sentAt: expect.stringMatching(/Z$/) });
      expect(sent.body.orgTemplate.version).toBe(1);
      expect(sent.body.decisions).toEqual({
        canEdit: false,
        canApprove: false,
        canReject: false,
        canSend: false,
        canRevealRegisterNummer: false,
      });
      expect((await other.post(url('/send', referentie))).status).toBe(409);
      expect((await mine.put(url('', referentie), { sections: view.brief.sections })).status).toBe(409);
    },
  );

  it('when an approver rejects with comments, then the drafter sees them, may edit again and resubmit', async () => {
    const { referentie } = await decideCase(system, 'afwijzen');
    const mine = portal(system, drafter('900000021'));
    const sections = (await caseBrief(system, referentie)).body.brief.sections;
    expect((await mine.post(url('/submit', referentie))).status).toBe(200);
    const rejected = await portal(system, approver('900000022')).post(url('/reject', referentie), {
      comments: 'Noem de reden concreter.',
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body.brief.status).toMatchObject({
      tag: 'afgekeurd',
      rejectedBy: '900000022',
      rejectedAt: expect.stringMatching(/Z$/),
      comments: 'Noem de reden concreter.',
    });

    sections[3].blocks[0].content.paragraphs.push({
      nodes: [{ type: 'text', text: 'U heeft 1200 uur gewerkt; nodig is 2080 uur.', marks: ['bold'], key: null }],
      list: null,
    });
    const edited = await mine.put(url('', referentie), { sections });
    expect(edited.status).toBe(200);
    expect(edited.body.brief.sections[3].blocks[0]).toMatchObject({
      sourcePassageId: 'besluit-afwijzen',
      sourceVersion: 1,
      edited: true,
    });
    const resubmitted = await mine.post(url('/submit', referentie));
    expect(resubmitted.body.brief.status).toMatchObject({ tag: 'ter-goedkeuring', rejectedBy: null, comments: null });
    expect(resubmitted.body.brief.sections[3].blocks[0].content.paragraphs.at(-1).nodes[0].text).toBe(
      'U heeft 1200 uur gewerkt; nodig is 2080 uur.',
    );
  });

  it('when two approvers approve at the same moment, then one gets 200 and the other 409', async () => {
    const { referentie } = await decideCase(system, 'toekennen');
    await caseBrief(system, referentie);
    expect((await portal(system, drafter('900000031')).post(url('/submit', referentie))).status).toBe(200);
    const [a, b] = await Promise.all([
      portal(system, approver('900000032')).post(url('/approve', referentie)),
      portal(system, approver('900000033')).post(url('/approve', referentie)),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect((await portal(system, drafter()).get(url('', referentie))).body.brief.status.approvedBy).toBe(
      a.status === 200 ? '900000032' : '900000033',
    );
  });

  it(
    'when two replicas of letters take an approval each at the same moment, then the ' +
      'compare-and-set on the revision lets one through and the other gets 409',
    async () => {
      // A second letters process on the same database: only the stored revision (a compare-and-set in PostgreSQL)
      // stands between the two.
      const replica = await startLettersSystem({
        database: { url: system.letters.databaseUrl, drop: async () => undefined },
        applicationsUrl: system.applications.url,
        natsUrl: system.nats,
        events: system.events,
      });
      try {
        const { referentie } = await decideCase(system, 'afwijzen');
        await caseBrief(system, referentie);
        expect((await portal(system, drafter('900000034')).post(url('/submit', referentie))).status).toBe(200);
        const direct = (base: string, subject: string) =>
          fetch(`${base}${url('/approve', referentie)}`, {
            method: 'POST',
            headers: asUser(practitioner(subject, 'approver')),
          }).then((r) => r.status);
        // The barrier: this test holds the letter's row, so both approvals read the same revision and then both wait
        // on the hold with their writes. Released, only the stored revision decides between them.
        const hold = await holdLock(
          system.letters.databaseUrl,
          'SELECT 1 FROM brief WHERE referentie = $1 FOR UPDATE',
          [referentie],
        );
        const statuses = Promise.all([direct(system.letters.url, '900000035'), direct(replica.url, '900000036')]);
        try {
          await hold.waiting(2);
        } finally {
          await hold.release();
        }
        const [first, second] = await statuses;
        expect([first, second].sort()).toEqual([200, 409]);
        const stored = await portal(system, drafter()).get(url('', referentie));
        expect(stored.body.brief.status).toMatchObject({
          tag: 'goedgekeurd',
          approvedBy: first === 200 ? '900000035' : '900000036',
        });
      } finally {
        await replica.close();
      }
    },
  );

  it(
    'when one replica saves a letter, then the other replica reads the change at ' +
      'once, and an edit there starts from it; a submit on one makes an edit on the ' +
      'other 409',
    async () => {
      // Each replica keeps the content it read or wrote last; every read asks PostgreSQL for the letter's revision.
      const replica = await startLettersSystem({
        database: { url: system.letters.databaseUrl, drop: async () => undefined },
        applicationsUrl: system.applications.url,
        natsUrl: system.nats,
        events: system.events,
      });
      try {
        const { referentie } = await decideCase(system, 'toekennen');
        await caseBrief(system, referentie);
        const direct = async (base: string, method: string, path = '', body?: unknown) => {
          const headers = {
            ...asUser(practitioner('900000037', 'drafter')),
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          };
          const res = await fetch(`${base}${url(path, referentie)}`, {
            method,
            headers,
            ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          });
          return { status: res.status, body: await res.json() };
        };
        const first = system.letters.url;
        const lastText = (view: any) => view.brief.sections[2].blocks.at(-1).content.paragraphs[0].nodes[0].text;
        const before = await direct(first, 'GET');
        expect((await direct(replica.url, 'GET')).body).toEqual(before.body);

        const sections = before.body.brief.sections;
        sections[2].blocks.push({
          type: 'tekst',
          content: { paragraphs: [{ nodes: [{ type: 'text', text: 'Geschreven via de eerste.' }], list: null }] },
        });
        expect((await direct(first, 'PUT', '', { sections })).status).toBe(200);
        const seen = await direct(replica.url, 'GET');
        expect(lastText(seen.body)).toBe('Geschreven via de eerste.');

        seen.body.brief.sections[2].blocks.at(-1).content.paragraphs[0].nodes[0].text = 'Verbeterd via de tweede.';
        expect((await direct(replica.url, 'PUT', '', { sections: seen.body.brief.sections })).status).toBe(200);
        const back = await direct(first, 'GET');
        expect(lastText(back.body)).toBe('Verbeterd via de tweede.');
        expect(back.body.brief.sections[2].blocks.filter((b: any) => b.type === 'tekst')).toHaveLength(1);

        // The other replica writes again: the first one's copy is now old, and its next edit is decided on what is
        // there.
        const newer = structuredClone(back.body.brief.sections);
        newer[2].blocks
          .at(-1)
          .content.paragraphs.push({ nodes: [{ type: 'text', text: 'Aangevuld via de tweede.' }], list: null });
        expect((await direct(replica.url, 'PUT', '', { sections: newer })).status).toBe(200);
        const locked = structuredClone(newer);
        locked[0].blocks = [];
        expect((await direct(first, 'PUT', '', { sections: locked })).status).toBe(400);
        newer[2].blocks.at(-1).content.paragraphs[0].nodes[0].text = 'Nogmaals via de eerste.';
        const edited = await direct(first, 'PUT', '', { sections: newer });
        expect(edited.status).toBe(200);
        expect(edited.body.brief.sections[2].blocks.at(-1).content.paragraphs.map((p: any) => p.nodes[0].text)).toEqual(
          ['Nogmaals via de eerste.', 'Aangevuld via de tweede.'],
        );
        expect(lastText((await direct(replica.url, 'GET')).body)).toBe('Nogmaals via de eerste.');
        expect((await direct(replica.url, 'POST', '/submit')).status).toBe(200);
        const late = await direct(first, 'PUT', '', { sections: newer });
        expect(late.status).toBe(409);
        expect((await direct(first, 'GET')).body.brief.status.tag).toBe('ter-goedkeuring');
      } finally {
        await replica.close();
      }
    },
  );

  it(
    'when a letter is reset, then it is a fresh concept of the default passages, ' +
      'whoever of its staff asks and in whatever state',
    async () => {
      const { referentie } = await decideCase(system, 'buiten-behandeling');
      const original = (await caseBrief(system, referentie)).body.brief.sections;
      const changed = JSON.parse(JSON.stringify(original));
      changed[2].blocks = [];
      expect((await portal(system, drafter()).put(url('', referentie), { sections: changed })).status).toBe(200);
      expect((await portal(system, drafter()).post(url('/submit', referentie))).status).toBe(200);
      const reset = await portal(system, admin()).post(url('/reset', referentie));
      expect(reset.status).toBe(200);
      expect(reset.body.brief.status.tag).toBe('concept');
      expect(reset.body.brief.drafterId).toBeNull();
      const source = (s: any[]) =>
        s.map((x) => x.blocks.map((b: any) => [b.sourcePassageId, b.sourceVersion, b.edited]));
      expect(source(reset.body.brief.sections)).toEqual(source(original));
      expect(source(reset.body.brief.sections)[2]).toEqual([['kern-buiten-behandeling', 1, false]]);
    },
  );
});

describe('PUT /api/v1/brief (content rules and hostile input)', () => {
  async function fresh() {
    const { referentie } = await decideCase(system, 'afwijzen');
    return { referentie, sections: (await caseBrief(system, referentie)).body.brief.sections };
  }

  it('when the body breaks a rule, then 400 names the offending node and nothing is written', async () => {
    const { referentie, sections } = await fresh();
    const me = portal(system, drafter());
    const before = (await me.get(url('', referentie))).text;
    const locked = JSON.parse(JSON.stringify(sections));
    locked[4].blocks[0].content.paragraphs[0].nodes[0].text = 'Geen bezwaar mogelijk.';
    const unknownKey = JSON.parse(JSON.stringify(sections));
    unknownKey[2].blocks[0].content.paragraphs[1].nodes = [
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
      { type: 'hardBreak' },
      { type: 'placeholder', key: 'zorgverlener.bsn' },
    ];
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

  it(
    'when the body carries a NUL, an unpaired surrogate, a huge number, deep nesting ' +
      'or broken JSON, then a 400 problem naming the place and never a 5xx',
    async () => {
      const { referentie, sections } = await fresh();
      const me = portal(system, drafter());
      const before = (await me.get(url('', referentie))).text;
      const json = JSON.stringify({ sections });
      const text = sections[2].blocks[0].content.paragraphs[0].nodes[0].text as string;
      const node = 'sections[2].blocks[0].content.paragraphs[0].nodes[0]';
      const bodies: Array<[string, string, string]> = [
        [json.replace(JSON.stringify(text), '"a\\u0000b"'), `${node}.text`, 'invalid_characters'],
        [json.replace(JSON.stringify(text), '"a\\ud800b"'), `${node}.text`, 'invalid_characters'],
        [
          json.replace('"sourceVersion":1', '"sourceVersion":99999999999999999999'),
          'sections[0].blocks[0].sourceVersion',
          'too_big',
        ],
        [
          json.replace('"sourceVersion":1', '"sourceVersion":2147483648'),
          'sections[0].blocks[0].sourceVersion',
          'too_big',
        ],
        [`{"sections":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, `sections${'[0]'.repeat(63)}`, 'too_deep'],
        [
          `{"sections":[{"sectionKey":"kern","blocks":[{"type":"tekst","content":{"paragraphs":[{"nodes":[` +
            `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}]}]}}]}]}`,
          `sections[0].blocks[0].content.paragraphs[0].nodes[0]${'.a'.repeat(55)}`,
          'too_deep',
        ],
        ['{"sections": [', '', 'invalid_json'],
        [`{"sections":[],"\\u0000":1}`, '\u0000', 'invalid_characters'],
      ];
      for (const [body, field, code] of bodies) {
        const res = await me.put(url('', referentie), body);
        expect(res.status).toBe(400);
        expect(res.headers.get('content-type')).toContain('application/problem+json');
        expect(res.body.type).toBe('/problems/validation');
        expect(res.body.errors[0]).toMatchObject({ field, code });
      }
      expect((await me.get(url('', referentie))).text).toBe(before);
    },
  );

  it(
    'when a node, mark, list kind or block type is outside the value sets of ADR ' +
      '0010, then a 400 problem naming that node and nothing is written',
    async () => {
      const { referentie, sections } = await fresh();
      const me = portal(system, drafter());
      const before = (await me.get(url('', referentie))).text;
      const node = 'sections[2].blocks[0].content.paragraphs[0].nodes[1]';
      const withNode = (n: unknown) => {
        const s = JSON.parse(JSON.stringify(sections));
        s[2].blocks[0].content.paragraphs[0].nodes[1] = n;
        return s;
      };
      const change = (f: (s: any[]) => void) => {
        const s = JSON.parse(JSON.stringify(sections));
        f(s);
        return s;
      };
      const cases: Array<[string, unknown[], string]> = [
        ['an unknown node type', withNode({ type: 'image', text: 'x' }), `${node}.type`],
        ['a mark outside the set', withNode({ type: 'text', text: 'x', marks: ['blink'] }), `${node}.marks[0]`],
        ['a text node with a key', withNode({ type: 'text', text: 'x', key: 'datum.vandaag' }), `${node}.key`],
        ['a placeholder without a key', withNode({ type: 'placeholder' }), `${node}.key`],
        ['a field of its own', withNode({ type: 'hardBreak', html: '<b>x</b>' }), `${node}.html`],
        [
          'a list kind outside the set',
          change((s) => (s[2].blocks[0].content.paragraphs[0].list = 'checklist')),
          'sections[2].blocks[0].content.paragraphs[0].list',
        ],
        ['a block type outside the set', change((s) => (s[3].blocks[0].type = 'html')), 'sections[3].blocks[0].type'],
        [
          'a passage the library does not have',
          change((s) => (s[3].blocks[0].sourcePassageId = 'bestaat-niet')),
          'sections[3].blocks[0].sourcePassageId',
        ],
        [
          'a passage block without its source',
          change((s) => (s[3].blocks[0].sourceVersion = null)),
          'sections[3].blocks[0].sourceVersion',
        ],
        ['a section out of order', change((s) => ([s[1], s[2]] = [s[2], s[1]])), 'sections[1].sectionKey'],
        ['a section twice', change((s) => s.push(s[1])), 'sections[6].sectionKey'],
        ['a locked section emptied', change((s) => (s[0].blocks = [])), 'sections[0].blocks[0]'],
        ['a locked section unlocked', change((s) => (s[4].locked = false)), 'sections[4].locked'],
      ];
      const wrong: string[] = [];
      for (const [name, body, field] of cases) {
        const res = await me.put(url('', referentie), { sections: body });
        const fields = res.body?.errors?.map((e: any) => e.field) ?? [];
        if (res.status !== 400 || res.body?.type !== '/problems/validation' || !fields.includes(field))
          wrong.push(`${name}: ${res.status} ${JSON.stringify(fields)}, expected 400 naming ${field}`);
      }
      expect(wrong).toEqual([]);
      expect((await me.get(url('', referentie))).text).toBe(before);
    },
  );

  it(
    'when the other letter inputs are malformed, then a 400 problem naming the field ' +
      '(reject comments, referentie) and never a 5xx',
    async () => {
      const { referentie } = await fresh();
      expect((await portal(system, drafter('900000061')).post(url('/submit', referentie))).status).toBe(200);
      const reviewer = portal(system, approver('900000062'));
      const cases: Array<[Promise<{ status: number; body: any }>, string]> = [
        [reviewer.post(url('/reject', referentie), { comments: 'a\u0000b' }), 'comments'],
        [reviewer.post(url('/reject', referentie), { comments: 'x'.repeat(2001) }), 'comments'],
        [reviewer.post(url('/reject', referentie), { comments: 42 }), 'comments'],
        [reviewer.post(url('/reject', referentie), { comments: 'ok', extra: true }), 'extra'],
        [reviewer.post(`/api/v1/brief/approve?referentie=${'A'.repeat(65)}`), 'referentie'],
        [portal(system, drafter()).get(`/api/v1/brief?referentie=${'A'.repeat(65)}`), 'referentie'],
        [portal(system, drafter()).get(`/api/v1/brief/pdf?referentie=${'A'.repeat(65)}`), 'referentie'],
      ];
      for (const [pending, field] of cases) {
        const res = await pending;
        expect(res.status).toBe(400);
        expect(res.body.errors.map((e: any) => e.field)).toContain(field);
      }
      expect((await reviewer.get(url('', referentie))).body.brief.status).toMatchObject({
        tag: 'ter-goedkeuring',
        rejectedBy: null,
        comments: null,
      });
    },
  );

  it(
    'when a drafter types markup into the letter, then it is stored as text and the ' +
      'preview shows it escaped, never as markup',
    async () => {
      const { referentie, sections } = await fresh();
      const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)> & "quote"';
      sections[2].blocks.push({
        type: 'tekst',
        content: { paragraphs: [{ nodes: [{ type: 'text', text: hostile, marks: ['bold'] }], list: null }] },
      });
      const saved = await portal(system, drafter()).put(url('', referentie), { sections });
      expect(saved.status).toBe(200);
      expect(saved.body.brief.sections[2].blocks[1].content.paragraphs[0].nodes[0].text).toBe(hostile);
      const preview = await portal(system, drafter()).get(url('/preview', referentie));
      expect(preview.status).toBe(200);
      expect(preview.text).toContain(
        '<strong>&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt; ' +
          '&amp; &quot;quote&quot;</strong>',
      );
      expect(preview.text).not.toMatch(/<script|<img src=x/);
      expect(preview.headers.get('content-security-policy')).toMatch(/default-src 'none'.*img-src data:/);
    },
  );

  it(
    'when the letter comes back unchanged, then every passage block stays unedited; ' +
      'one changed node marks only its block',
    async () => {
      const { referentie, sections } = await fresh();
      const me = portal(system, drafter());
      const editedFlags = (s: any[]) => s.flatMap((x) => x.blocks.map((b: any) => [b.sourcePassageId, b.edited]));
      const unchanged = await me.put(url('', referentie), { sections });
      expect(unchanged.status).toBe(200);
      expect(editedFlags(unchanged.body.brief.sections)).toEqual(editedFlags(sections));
      expect(
        editedFlags(unchanged.body.brief.sections).every(([, edited]: [string, boolean]) => edited === false),
      ).toBe(true);
      sections[5].blocks[0].content.paragraphs[0].nodes[0].text += ' Wij helpen u graag.';
      const one = await me.put(url('', referentie), { sections });
      expect(editedFlags(one.body.brief.sections).filter(([, edited]: [string, boolean]) => edited)).toEqual([
        ['afsluiting-vragen', true],
      ]);
    },
  );

  it(
    'when a fillable placeholder is filled in and a passage block added from the ' +
      'library, then both are kept; the caller cannot claim edited',
    async () => {
      const { referentie, sections } = await fresh();
      const passages: any[] = (await portal(system, drafter()).get(url('', referentie))).body.availablePassages;
      const reason = passages.find((p) => p.passageId === 'reden-onvolledige-aanvraag');
      sections[3].blocks.push({
        type: 'passage',
        sourcePassageId: reason.passageId,
        sourceVersion: reason.version,
        edited: true,
        content: reason.content,
      });
      sections[3].blocks[1].content.paragraphs[0].nodes = sections[3].blocks[1].content.paragraphs[0].nodes.map(
        (n: any) => (n.key === 'termijn.weken' ? { ...n, text: '4' } : n),
      );
      const saved = await portal(system, drafter()).put(url('', referentie), { sections });
      expect(saved.status).toBe(200);
      const block = saved.body.brief.sections[3].blocks[1];
      expect(block).toMatchObject({
        type: 'passage',
        sourcePassageId: 'reden-onvolledige-aanvraag',
        sourceVersion: 1,
        edited: true,
        blockId: expect.any(String),
      });
      expect(block.content.paragraphs[0].nodes.find((n: any) => n.key === 'termijn.weken').text).toBe('4');
      const html = await portal(system, drafter()).get(url('/preview', referentie));
      expect(html.text).toContain('binnen 4 weken aan te vullen');
    },
  );
});
