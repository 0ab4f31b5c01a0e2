// Puts the page, its layout CSS and the NL Design System's CSS (components and Rijkshuisstijl tokens) next to the
// compiled modules, so dist/web is the whole console as static files.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, '..', 'dist', 'web');
const require = createRequire(import.meta.url);
const from = (pkg, file) => path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file);

mkdirSync(path.join(out, 'css'), { recursive: true });
copyFileSync(path.join(here, '..', 'static', 'index.html'), path.join(out, 'index.html'));
copyFileSync(path.join(here, '..', 'static', 'console.css'), path.join(out, 'css', 'console.css'));
copyFileSync(from('@rijkshuisstijl-community/design-tokens', 'dist/index.css'), path.join(out, 'css', 'tokens.css'));
copyFileSync(
  from('@rijkshuisstijl-community/components-css', 'dist/index.css'),
  path.join(out, 'css', 'components.css'),
);
