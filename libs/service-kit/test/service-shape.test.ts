import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// Issue 27 (one shape): every service's background work is found by its file name. A file that builds a job on the
// kit's loop or a durable consumer is `<what>.job.ts` or `<what>.consumer.ts`; no other file builds one.
const root = path.resolve(__dirname, '..', '..', '..');
const services = readdirSync(path.join(root, 'services'));

function sourcesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourcesOf(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

const sources = services.flatMap((s) => sourcesOf(path.join(root, 'services', s, 'src')));

describe("the services' jobs and consumers", () => {
  it('when a service file builds a job loop or a durable consumer, then it is named *.job.ts or *.consumer.ts', () => {
    const builders = sources.filter((file) => /new (JobLoop|DurableConsumer)\b/.test(readFileSync(file, 'utf8')));
    expect(builders.length).toBeGreaterThanOrEqual(8);
    const misnamed = builders
      .filter((file) => !/\.(job|consumer)\.ts$/.test(file))
      .map((file) => path.relative(root, file));
    expect(misnamed).toEqual([]);
  });

  it('when a file is named *.job.ts or *.consumer.ts, then it builds one', () => {
    const named = sources.filter((file) => /\.(job|consumer)\.ts$/.test(file));
    const empty = named
      .filter((file) => !/new (JobLoop|DurableConsumer)\b/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(root, file));
    expect(empty).toEqual([]);
  });
});
