import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { buildConfigJsonSchema } from '../modules/config';

/** `npm run schema`: regenerates schemas/openclaw.schema.json from the schema classes. */
const target = path.resolve(__dirname, '../../schemas/openclaw.schema.json');
writeFileSync(target, `${JSON.stringify(buildConfigJsonSchema(), null, 2)}\n`);
process.stdout.write(`wrote ${target}\n`);
