// Freezes the published version (docs/api/v1.0.0.json and docs/api/v1.0.0/): run only when publishing it.
import { freeze } from './baseline';

const names = freeze();
process.stdout.write(`froze the description and ${names.length} schemas\n`);
