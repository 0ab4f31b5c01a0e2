import { randomUUID } from 'node:crypto';
import { asUser, practitioner, startNeighbour, uniqueSubject, type Neighbour } from '@register/testkit';
import { pdf, startDocumentsSystem, upload, type DocumentsSystem } from './support/system';

// ADR 0006 and 0015: an upload may name only the caller's own application in Concept; any other is a 400
// naming applicationId, and nothing is stored. The applications service (a process of its own) answers.
let applications: Neighbour;
let h: DocumentsSystem;
beforeAll(async () => {
  const nowhere = 'http://127.0.0.1:9';
  applications = await startNeighbour('applications', { env: { REFERENCE_URL: nowhere, DOCUMENTS_URL: nowhere } });
  h = await startDocumentsSystem({ APPLICATIONS_URL: applications.url });
});
afterAll(async () => {
  await h.close();
  await applications.close();
});

async function concept(subject: string): Promise<string> {
  const res = await fetch(`${applications.url}/api/v1/applications`, {
    method: 'POST',
    headers: { ...asUser(practitioner(subject)), 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'intake' }),
  });
  if (res.status !== 201) throw new Error(`create answered ${res.status}`);
  return ((await res.json()) as { id: string }).id;
}

const diploma = (subject: string, applicationId: string) =>
  upload(h, practitioner(subject), {
    wizardId: 'intake',
    categoryId: 'overig',
    applicationId,
    file: { bytes: pdf(), name: 'd.pdf', type: 'application/pdf' },
  });

describe('POST /api/v1/uploads with an applicationId', () => {
  it('when it names the caller’s own Concept application, then 201 with that applicationId', async () => {
    const subject = uniqueSubject();
    const id = await concept(subject);
    const res = await diploma(subject, id);
    expect(res.status).toBe(201);
    expect((await res.json()).applicationId).toBe(id);
  });

  it.each([
    ['another owner’s application', async () => concept(uniqueSubject())],
    ['an id that exists nowhere', async () => randomUUID()],
  ])('when it names %s, then 400 naming applicationId and nothing is stored', async (_what, target) => {
    const subject = uniqueSubject();
    const id = await target();
    const [keys, rows] = [await h.objectKeys(), await h.rowCount()];
    const res = await diploma(subject, id);
    expect(res.status).toBe(400);
    const problem = await res.json();
    expect(problem.type).toBe('/problems/validation');
    expect(problem.errors).toEqual([expect.objectContaining({ field: 'applicationId', code: 'not-own-concept' })]);
    expect([await h.objectKeys(), await h.rowCount()]).toEqual([keys, rows]);
    expect(h.tmpFiles()).toEqual([]);
  });
});
