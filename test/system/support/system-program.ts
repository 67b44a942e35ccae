import { promises as fs, constants as fsConstants } from 'node:fs';
import * as path from 'node:path';

/** Where distributions put daemons; often missing from a non-root PATH. */
const SBIN_DIRS = ['/usr/sbin', '/usr/local/sbin', '/sbin'];

/**
 * The path of a program a system-tier suite needs. Without it the suite fails, never skips: a machine that
 * silently skipped would pass without testing anything. The error names the one-line install.
 */
export async function requireProgram(name: string, install: string, extraDirs: string[] = []): Promise<string> {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), ...SBIN_DIRS, ...extraDirs];
  for (const dir of dirs.filter(Boolean)) {
    const candidate = path.join(dir, name);
    try {
      await fs.access(candidate, fsConstants.X_OK);
      return candidate;
    } catch {
      // try the next directory
    }
  }
  throw new Error(
    `${name} is not installed, and this system-tier suite needs it. Install it with: ${install}\n` +
      '(`npm test` needs only Node.js; `npm run test:system` needs the programs its suites name.)',
  );
}
