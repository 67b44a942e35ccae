import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { renderCompatibilityDoc } from '../modules/config';

/** `npm run compat-doc`: regenerates docs/openclaw-compatibility.md from openclaw-keys.ts. */
const target = path.resolve(__dirname, '../../docs/openclaw-compatibility.md');
writeFileSync(target, renderCompatibilityDoc());
process.stdout.write(`wrote ${target}\n`);
