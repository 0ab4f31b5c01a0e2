import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// One shape for every service (ADR 0258): background work is found by its file name (`<what>.job.ts`,
// `<what>.consumer.ts`), a use case takes the service's whole `Context` and a repository a Kysely db or transaction.
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

/** A feature folder's files: everything below `src/<feature>/` but the adapters. */
const featureFiles = sources.filter((file) => {
  const [, inSrc] = file.split(`${path.sep}src${path.sep}`);
  return inSrc !== undefined && inSrc.includes(path.sep) && !inSrc.startsWith(`adapters${path.sep}`);
});

/** The parameter list of every exported function in `text` (up to the first `)` that closes it). */
function exportedParameters(text: string): Array<{ name: string; params: string }> {
  const found: Array<{ name: string; params: string }> = [];
  for (const m of text.matchAll(/export (?:async )?function (\w+)(?:<[^(]*>)?\(/g)) {
    let depth = 1;
    let i = m.index + m[0].length;
    while (depth > 0 && i < text.length) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')') depth--;
      i++;
    }
    found.push({ name: m[1]!, params: text.slice(m.index + m[0].length, i - 1) });
  }
  return found;
}

describe("the services' use cases and repositories", () => {
  it('when a feature folder declares or takes a part of the context, then the test names it', () => {
    expect(featureFiles.length).toBeGreaterThanOrEqual(100);
    const parts = featureFiles.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const where = path.relative(root, file);
      const picks = text.includes('Pick<Context') ? [`${where}: Pick<Context, …>`] : [];
      const declared = [...text.matchAll(/(?:interface|type) (\w+Deps)\b/g)].map((m) => `${where}: ${m[1]}`);
      const taken = exportedParameters(text)
        .filter(({ params }) => /:\s*\w*Deps\b/.test(params))
        .map(({ name }) => `${where}: ${name}(…Deps)`);
      return [...picks, ...declared, ...taken];
    });
    expect(parts).toEqual([]);
  });

  it('when a use case is exported with the context, then the context is its first parameter', () => {
    const late = featureFiles.flatMap((file) =>
      exportedParameters(readFileSync(file, 'utf8'))
        .filter(({ params }) => /,\s*ctx: Context\b/.test(params))
        .map(({ name }) => `${path.relative(root, file)}: ${name}`),
    );
    expect(late).toEqual([]);
  });

  it('when a file is a repository, then it never reaches for the context', () => {
    const repositories = featureFiles.filter((file) => file.endsWith('.repository.ts'));
    expect(repositories.length).toBeGreaterThanOrEqual(15);
    const reaching = repositories
      .filter((file) => /from '\.\.?\/(\.\.\/)*context'/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(root, file));
    expect(reaching).toEqual([]);
  });
});
