import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The version in clawgate's package.json, found by walking up from this file: the CLI runs from dist/, from
 * an installed package, or transpiled elsewhere in the repo, so no fixed relative path fits all three.
 */
export function packageVersion(fromDir: string = __dirname): string {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'clawgate' && pkg.version) return pkg.version;
    } catch {
      // no (readable) package.json here: keep walking up
    }
    if (path.dirname(dir) === dir) return 'unknown';
  }
}
