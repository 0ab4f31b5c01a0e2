import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** A shell block of the documentation that talks to a running system (it begins with `B=http://localhost:8080`). */
export interface Example {
  /** `README.md:214 (Walk-through: …)`: where it is, for the test's title. */
  where: string;
  code: string;
  /** It also talks to the ZGW simulator (`Z=http://localhost:8090`), so it needs the ZGW start command's system. */
  zgw: boolean;
}

export const GATEWAY = 'http://localhost:8080';
export const SIMULATOR = 'http://localhost:8090';

/** The README and every Markdown file under docs/, in that order. */
export function documentation(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir)
      .sort()
      .flatMap((name) => {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) return walk(file);
        return file.endsWith('.md') ? [file] : [];
      });
  return [path.join(root, 'README.md'), ...walk(path.join(root, 'docs'))];
}

function bashBlocks(markdown: string): Array<{ line: number; heading: string; code: string }> {
  const blocks: Array<{ line: number; heading: string; code: string }> = [];
  const lines = markdown.split('\n');
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.startsWith('#')) heading = lines[i]!.replace(/^#+\s*/, '');
    if (lines[i] !== '```bash') continue;
    const end = lines.indexOf('```', i + 1);
    if (end === -1) throw new Error(`a bash block at line ${i + 1} is not closed`);
    blocks.push({ line: i + 1, heading, code: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return blocks;
}

/** Every example of the documentation, in reading order. */
export function examples(root: string): Example[] {
  return documentation(root).flatMap((file) =>
    bashBlocks(readFileSync(file, 'utf8'))
      .filter((b) => b.code.startsWith(`B=${GATEWAY}`))
      .map((b) => ({
        where: `${path.relative(root, file)}:${b.line} (${b.heading})`,
        code: b.code,
        zgw: b.code.includes(SIMULATOR),
      })),
  );
}

/**
 * The settings of the README's start command for mirroring (`ZGW_ENABLED=true … npm start`), as npm start gets them.
 */
export function zgwStartSettings(root: string): Record<string, string> {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const command = bashBlocks(readme)
    .flatMap((b) => b.code.split('\n'))
    .find((line) => /^ZGW_ENABLED=true .*npm start$/.test(line));
  if (!command) throw new Error('README.md has no `ZGW_ENABLED=true … npm start` command');
  const settings: Record<string, string> = {};
  for (const m of command.matchAll(/([A-Z][A-Z0-9_]*)=('([^']*)'|(\S+))/g)) settings[m[1]!] = m[3] ?? m[4]!;
  return settings;
}
