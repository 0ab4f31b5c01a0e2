import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import { sql } from 'kysely';
import {
  asService,
  asUser,
  caseHandler,
  eventually,
  holdLock,
  practitioner,
  startNeighbour,
  uniqueSubject,
  type Neighbour,
} from '@register/testkit';
import { LARGEST_UPLOAD_BYTES } from '../src/uploads/categories';
import { MIB, pdf, png, startDocumentsSystem, svg, upload, type DocumentsSystem } from './support/system';

let h: DocumentsSystem;
beforeAll(async () => {
  h = await startDocumentsSystem();
});
afterAll(async () => {
  await h.close();
});

const logo = (bytes: Buffer, name = 'logo.png', type = 'image/png') => ({
  wizardId: 'orgtemplate',
  categoryId: 'organisatie-logo',
  file: { bytes, name, type },
});

describe('POST /api/v1/uploads', () => {
  it(
    'when a PDF is uploaded with a localId, ' + 'then 201 carries every field of ADR 0006 and the bytes are stored',
    async () => {
      const bytes = pdf(5000);
      const res = await upload(h, practitioner(uniqueSubject()), {
        wizardId: 'intake',
        categoryId: 'diploma',
        localId: 'local-1',
        file: { bytes, name: 'diploma €.pdf', type: 'application/pdf' },
      });
      expect(res.status).toBe(201);
      const body = await res.json();
      expect(Object.keys(body).sort()).toEqual(
        [
          'applicationId',
          'categoryId',
          'contentType',
          'createdAt',
          'documentId',
          'fileName',
          'localId',
          'sha256',
          'sizeBytes',
          'status',
          'wizardId',
        ].sort(),
      );
      expect(body).toMatchObject({
        localId: 'local-1',
        wizardId: 'intake',
        categoryId: 'diploma',
        applicationId: null,
        fileName: 'diploma €.pdf',
        contentType: 'application/pdf',
        sizeBytes: 5000,
        status: 'ontvangen',
      });
      expect(body.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(h.tmpFiles()).toEqual([]);
    },
  );

  it.each([
    ['a right-to-left override', 'inv\u202Efdp.exe', 'invfdp.exe'],
    ['a zero-width space and a left-to-right isolate', 'dip\u200Blo\u2066ma.pdf', 'diploma.pdf'],
    ['a tab, a line break and a BOM', '\uFEFFdiploma\t2026\n.pdf', 'diploma2026.pdf'],
  ])(
    'when the file name holds %s, then it is stored and shown without those characters',
    async (_name, sent, shown) => {
      const owner = practitioner(uniqueSubject());
      const res = await upload(h, owner, {
        wizardId: 'intake',
        categoryId: 'overig',
        file: { bytes: pdf(3000), name: sent, type: 'application/pdf' },
      });
      expect(res.status).toBe(201);
      const { documentId, fileName } = (await res.json()) as { documentId: string; fileName: string };
      expect(fileName).toBe(shown);
      const content = await fetch(`${h.url}/api/v1/uploads/${documentId}/content`, { headers: asUser(owner) });
      expect(content.headers.get('content-disposition')).toBe(
        `attachment; filename*=UTF-8''${encodeURIComponent(shown)}`,
      );
    },
  );

  it.each([
    ['localId', 'a\u0000b'],
    ['applicationId', '\u0000'],
  ])('when the text field %s carries a NUL, then 400 naming it and nothing is stored', async (field, value) => {
    const [rows, objects] = [await h.rowCount(), await h.objectKeys()];
    const res = await upload(h, practitioner(uniqueSubject()), {
      wizardId: 'intake',
      categoryId: 'overig',
      [field]: value,
      file: { bytes: pdf(3000), name: 'bewijs.pdf', type: 'application/pdf' },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: Array<{ field: string }> }).errors.map((e) => e.field)).toEqual([field]);
    expect([await h.rowCount(), await h.objectKeys(), h.tmpFiles()]).toEqual([rows, objects, []]);
  });

  it(
    'when the file name holds nothing but control and formatting characters, ' +
      'then 400 naming file and nothing is stored',
    async () => {
      const [rows, objects] = [await h.rowCount(), await h.objectKeys()];
      const res = await upload(h, practitioner(uniqueSubject()), {
        wizardId: 'intake',
        categoryId: 'overig',
        file: { bytes: pdf(3000), name: '\u202E\u200B\u2066', type: 'application/pdf' },
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { errors: Array<{ field: string }> }).errors.map((e) => e.field)).toEqual(['file']);
      expect([await h.rowCount(), await h.objectKeys(), h.tmpFiles()]).toEqual([rows, objects, []]);
    },
  );

  it('when the caller has no identity, then 401; a case handler without applications:own gets 403', async () => {
    const form = { wizardId: 'intake', categoryId: 'overig', file: { bytes: pdf(), name: 'a.pdf' } };
    expect((await upload(h, null, form)).status).toBe(401);
    const res = await upload(h, caseHandler('m-1'), form);
    expect(res.status).toBe(403);
    expect((await res.json()).type).toBe('/problems/forbidden');
  });

  it.each([
    ['unknown wizard', { wizardId: 'nope', categoryId: 'overig', file: { bytes: pdf(), name: 'a.pdf' } }, 'categoryId'],
    [
      'unknown category',
      { wizardId: 'intake', categoryId: 'werkervaring', file: { bytes: pdf(), name: 'a.pdf' } },
      'categoryId',
    ],
    ['no file', { wizardId: 'intake', categoryId: 'overig' }, 'file'],
    [
      'a localId over 64 characters',
      { wizardId: 'intake', categoryId: 'overig', localId: 'x'.repeat(65), file: { bytes: pdf(), name: 'a.pdf' } },
      'localId',
    ],
    ['no wizardId', { categoryId: 'overig', file: { bytes: pdf(), name: 'a.pdf' } }, 'wizardId'],
  ])('when %s, then 400 validation naming the field and nothing is stored', async (_case, options, field) => {
    const before = await h.objectKeys();
    const rows = await h.rowCount();
    const res = await upload(h, practitioner(uniqueSubject()), options);
    expect(res.status).toBe(400);
    const problem = await res.json();
    expect(problem.type).toBe('/problems/validation');
    expect(problem.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(await h.objectKeys()).toEqual(before);
    expect(await h.rowCount()).toBe(rows);
    expect(h.tmpFiles()).toEqual([]);
  });

  it('when a drafter uploads an organisatie-logo, then 403; an admin may', async () => {
    expect((await upload(h, practitioner(uniqueSubject(), 'drafter'), logo(png()))).status).toBe(403);
    expect((await upload(h, practitioner(uniqueSubject(), 'admin'), logo(png()))).status).toBe(201);
  });

  it(
    'when an admin uploads a second organisatie-logo while the first is there, ' +
      'then 409 and nothing more is stored; after deleting the first, the slot is free (ADR 0006)',
    async () => {
      const admin = practitioner(uniqueSubject(), 'admin');
      const first = await upload(h, admin, logo(png()));
      expect(first.status).toBe(201);
      const keys = await h.objectKeys();
      const rows = await h.rowCount();
      const second = await upload(h, admin, logo(svg(), 'logo.svg', 'image/svg+xml'));
      expect(second.status).toBe(409);
      expect((await second.json()).type).toBe('/problems/conflict');
      expect([await h.objectKeys(), await h.rowCount()]).toEqual([keys, rows]);
      const { documentId } = await first.json();
      expect(
        (await fetch(`${h.url}/api/v1/uploads/${documentId}`, { method: 'DELETE', headers: asUser(admin) })).status,
      ).toBe(204);
      expect((await upload(h, admin, logo(svg(), 'logo.svg', 'image/svg+xml'))).status).toBe(201);
    },
  );

  it('when a logo is exactly 1 MiB, then 201; one byte more is 413 payload-too-large and leaves nothing', async () => {
    const admin = practitioner(uniqueSubject(), 'admin');
    const exact = await upload(h, admin, logo(png(MIB)));
    expect(exact.status).toBe(201);
    expect((await exact.json()).sizeBytes).toBe(MIB);
    const keys = await h.objectKeys();
    const rows = await h.rowCount();
    const over = await upload(h, practitioner(uniqueSubject(), 'admin'), logo(png(MIB + 1)));
    expect(over.status).toBe(413);
    expect((await over.json()).type).toBe('/problems/payload-too-large');
    expect(await h.objectKeys()).toEqual(keys);
    expect(await h.rowCount()).toBe(rows);
    expect(h.tmpFiles()).toEqual([]);
  });

  it('when the file part comes before the fields, then the category limit still holds (413)', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png(MIB + 1))], { type: 'image/png' }), 'logo.png');
    form.append('wizardId', 'orgtemplate');
    form.append('categoryId', 'organisatie-logo');
    const res = await fetch(`${h.url}/api/v1/uploads`, {
      method: 'POST',
      headers: asUser(practitioner(uniqueSubject(), 'admin')),
      body: form,
    });
    expect(res.status).toBe(413);
    expect(h.tmpFiles()).toEqual([]);
  });

  it('when an SVG logo is uploaded, then its content is sniffed and stored as image/svg+xml', async () => {
    const res = await upload(h, practitioner(uniqueSubject(), 'admin'), logo(svg(), 'logo.svg', 'text/plain'));
    expect(res.status).toBe(201);
    expect((await res.json()).contentType).toBe('image/svg+xml');
  });

  it(
    'when a PDF is renamed to .png, then the detected type decides: ' +
      '415 for the logo, accepted as PDF for a diploma',
    async () => {
      const renamed = { bytes: pdf(), name: 'logo.png', type: 'image/png' };
      const rejected = await upload(h, practitioner(uniqueSubject(), 'admin'), {
        wizardId: 'orgtemplate',
        categoryId: 'organisatie-logo',
        file: renamed,
      });
      expect(rejected.status).toBe(415);
      expect((await rejected.json()).type).toBe('/problems/unsupported-media-type');
      const accepted = await upload(h, practitioner(uniqueSubject()), {
        wizardId: 'intake',
        categoryId: 'diploma',
        file: renamed,
      });
      expect(accepted.status).toBe(201);
      expect((await accepted.json()).contentType).toBe('application/pdf');
    },
  );

  it('when a text file is declared as application/pdf, then 415 and nothing is stored', async () => {
    const keys = await h.objectKeys();
    const rows = await h.rowCount();
    const res = await upload(h, practitioner(uniqueSubject()), {
      wizardId: 'intake',
      categoryId: 'diploma',
      file: {
        bytes: Buffer.from('just some text, not a pdf\n'.repeat(20)),
        name: 'diploma.pdf',
        type: 'application/pdf',
      },
    });
    expect(res.status).toBe(415);
    expect(await h.objectKeys()).toEqual(keys);
    expect(await h.rowCount()).toBe(rows);
    expect(h.tmpFiles()).toEqual([]);
  });

  it(
    'when a second document goes into a single category of the same wizard, ' + 'then 409 and nothing more is stored',
    async () => {
      const owner = practitioner(uniqueSubject());
      const diploma = () =>
        upload(h, owner, { wizardId: 'intake', categoryId: 'diploma', file: { bytes: pdf(), name: 'd.pdf' } });
      expect((await diploma()).status).toBe(201);
      const keys = await h.objectKeys();
      const rows = await h.rowCount();
      const second = await diploma();
      expect(second.status).toBe(409);
      expect((await second.json()).type).toBe('/problems/conflict');
      expect([await h.objectKeys(), await h.rowCount()]).toEqual([keys, rows]);
    },
  );

  it(
    'when the document in a single category is linked, ' + 'then the slot is free for a new upload (ADR 0006)',
    async () => {
      const subject = uniqueSubject();
      const owner = practitioner(subject);
      const diploma = () =>
        upload(h, owner, { wizardId: 'intake', categoryId: 'diploma', file: { bytes: pdf(), name: 'd.pdf' } });
      const first = await diploma();
      expect(first.status).toBe(201);
      const { documentId } = await first.json();
      expect((await diploma()).status).toBe(409);
      const linked = await fetch(`${h.url}/internal/links`, {
        method: 'POST',
        headers: { ...asService('applications'), 'content-type': 'application/json' },
        body: JSON.stringify({
          applicationId: randomUUID(),
          owner: subject,
          documents: [{ documentId, categoryId: 'diploma' }],
        }),
      });
      expect(linked.status).toBe(200);
      expect((await diploma()).status).toBe(201);
    },
  );

  it(
    'when the same owner races five uploads into a single category, ' +
      'then exactly one is stored and no orphan object stays',
    async () => {
      const subject = uniqueSubject();
      const keysBefore = (await h.objectKeys()).length;
      // The barrier: each upload has stored its bytes and waits with its row on this test's lock on the table,
      // until all five are in flight together; then the single-slot index decides.
      const hold = await holdLock(h.databaseUrl, 'LOCK TABLE document IN SHARE MODE');
      const racing = Promise.all(
        Array.from({ length: 5 }, () =>
          upload(h, practitioner(subject), {
            wizardId: 'herregistratie',
            categoryId: 'werkervaring',
            file: { bytes: pdf(20_000), name: 'w.pdf' },
          }).then((r) => r.status),
        ),
      );
      try {
        await hold.waiting(5);
      } finally {
        await hold.release();
      }
      expect((await racing).sort()).toEqual([201, 409, 409, 409, 409]);
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM document
      WHERE owner = ${subject} AND category_id = 'werkervaring'`.execute(h.context.db);
      expect(rows[0]!.n).toBe(1);
      expect((await h.objectKeys()).length).toBe(keysBefore + 1);
    },
  );

  it('when several owners upload at the same time, then each gets their own document with the right hash', async () => {
    const files = Array.from({ length: 6 }, (_, i) => ({ subject: uniqueSubject(), bytes: pdf(100_000 + i * 1000) }));
    const bodies = await Promise.all(
      files.map(async (f) => {
        const res = await upload(h, practitioner(f.subject), {
          wizardId: 'intake',
          categoryId: 'diploma',
          file: { bytes: f.bytes, name: 'd.pdf' },
        });
        expect(res.status).toBe(201);
        return res.json();
      }),
    );
    bodies.forEach((b, i) => expect(b.sha256).toBe(createHash('sha256').update(files[i]!.bytes).digest('hex')));
    expect(new Set(bodies.map((b) => b.documentId)).size).toBe(files.length);
  });

  it(
    'when the client drops the connection halfway through the file, ' + 'then no temp file, object or row remains',
    async () => {
      const keys = await h.objectKeys();
      const rows = await h.rowCount();
      const boundary = 'b0undary';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="wizardId"\r\n\r\nintake\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="categoryId"\r\n\r\noverig\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; ` +
          `filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      );
      const req = http.request(`${h.url}/api/v1/uploads`, {
        method: 'POST',
        headers: {
          ...asUser(practitioner(uniqueSubject())),
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + 10 * MIB),
        },
      });
      req.on('error', () => undefined);
      req.write(head);
      req.write(pdf(2 * MIB));
      // Let the server spool what it got, then cut the connection.
      await eventually(async () => (h.tmpFiles().length > 0 ? true : undefined));
      req.destroy();
      await eventually(async () => (h.tmpFiles().length === 0 ? true : undefined));
      expect(await h.objectKeys()).toEqual(keys);
      expect(await h.rowCount()).toBe(rows);
    },
  );

  it('when the declared length exceeds every category, then 413 comes at once, before the body is read', async () => {
    const req = http.request(`${h.url}/api/v1/uploads`, {
      method: 'POST',
      headers: {
        ...asUser(practitioner(uniqueSubject())),
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(200 * MIB),
      },
    });
    req.on('error', () => undefined);
    req.write('--x\r\n');
    const res = await new Promise<http.IncomingMessage>((resolve) => req.on('response', resolve));
    expect(res.statusCode).toBe(413);
    res.resume();
    req.destroy();
    expect(h.tmpFiles()).toEqual([]);
  });

  it(
    'when the declared length exceeds every category, then the rest is read ' +
      'and dropped up to the largest upload, and only then is the connection cut',
    async () => {
      // Closing at once would make the kernel reset the connection under bytes still coming, and the reset can
      // take the unread 413 with it: through the gateway that was a 503.
      // On a keep-alive connection, as the gateway sends it (a client's Connection: close is answered in kind).
      const agent = new http.Agent({ keepAlive: true });
      const req = http.request(`${h.url}/api/v1/uploads`, {
        method: 'POST',
        agent,
        headers: {
          ...asUser(practitioner(uniqueSubject())),
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': String(200 * MIB),
        },
      });
      let closedAfter = -1;
      let sent = 0;
      req.on('error', () => undefined);
      const closed = new Promise<void>((resolve) => req.on('close', () => resolve(void (closedAfter = sent))));
      // Resolves when the bytes are handed on, or with the error of a connection the service cut.
      const send = (bytes: number) =>
        new Promise<Error | null>((resolve) => {
          sent += bytes;
          req.write(Buffer.alloc(bytes), (err) => resolve(err ?? null));
        });
      await send(MIB);
      const res = await new Promise<http.IncomingMessage>((resolve) => req.on('response', resolve));
      expect(res.statusCode).toBe(413);
      expect(res.headers['connection']).not.toBe('close');
      res.resume();
      // Every write up to 20 MiB goes through: a service that cut the connection early would fail one of them.
      const failures: Array<Error | null> = [];
      while (sent < 20 * MIB) failures.push(await send(MIB));
      expect(failures.filter(Boolean)).toEqual([]);
      expect(closedAfter).toBe(-1);
      // Then the service cuts it once it has dropped the largest upload's worth: wait for the close itself.
      while (closedAfter === -1 && sent < 60 * MIB) await Promise.race([send(MIB), closed]);
      await closed;
      expect(closedAfter).toBeGreaterThan(LARGEST_UPLOAD_BYTES);
      expect(closedAfter).toBeLessThan(60 * MIB);
      expect(h.tmpFiles()).toEqual([]);
      agent.destroy();
    },
  );
});

describe('POST /api/v1/uploads into a single category of an application (ADR 0006, 0015)', () => {
  // The documents service asks the applications service (a real process of its own) whose Concept an id names.
  let applications: Neighbour;
  let withApplications: DocumentsSystem;
  beforeAll(async () => {
    applications = await startNeighbour('applications', {
      env: { REFERENCE_URL: 'http://127.0.0.1:9', DOCUMENTS_URL: 'http://127.0.0.1:9' },
    });
    withApplications = await startDocumentsSystem({ APPLICATIONS_URL: applications.url });
  });
  afterAll(async () => {
    await withApplications?.close();
    await applications?.close();
  });

  const conceptOf = async (subject: string): Promise<string> => {
    const res = await fetch(`${applications.url}/api/v1/applications`, {
      method: 'POST',
      headers: { ...asUser(practitioner(subject)), 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'intake' }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const diploma = (subject: string, applicationId: string) =>
    upload(withApplications, practitioner(subject), {
      wizardId: 'intake',
      categoryId: 'diploma',
      applicationId,
      file: { bytes: pdf(), name: 'd.pdf', type: 'application/pdf' },
    });

  // Unknown ids and another owner's Concept: upload-target.test.ts.
  it('when it is not an application id at all, then 400 naming applicationId and nothing is stored', async () => {
    const keys = await withApplications.objectKeys();
    const rows = await withApplications.rowCount();
    const res = await diploma(uniqueSubject(), 'app-1');
    expect(res.status).toBe(400);
    expect((await res.json()).errors.map((e: { field: string }) => e.field)).toEqual(['applicationId']);
    expect([await withApplications.objectKeys(), await withApplications.rowCount()]).toEqual([keys, rows]);
  });

  it(
    "when it is the caller's own Concept, then 201, " +
      'and that application is a slot of its own: a second diploma there is 409',
    async () => {
      const subject = uniqueSubject();
      const applicationId = await conceptOf(subject);
      expect(
        (
          await upload(withApplications, practitioner(subject), {
            wizardId: 'intake',
            categoryId: 'diploma',
            file: { bytes: pdf(), name: 'd.pdf' },
          })
        ).status,
      ).toBe(201);
      const first = await diploma(subject, applicationId);
      expect(first.status).toBe(201);
      expect((await first.json()).applicationId).toBe(applicationId);
      expect((await diploma(subject, applicationId)).status).toBe(409);
    },
  );
});
