import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { PRIVATE_FILE_MODE } from '../common/fs/private-files';
import { AppError } from '../common/errors/app-error';
import { locateConfig } from '../modules/config';
import { openSessionExport } from '../modules/sessions';

/**
 * `clawgate sessions export <key>`: the transcript as JSONL on stdout, or in `--out <file>` (created 0600:
 * transcripts are as private as the state dir they come from). Reads the database read-only, so a running
 * gateway is neither needed nor disturbed.
 */
export async function runSessionsExport(key: string, opts: { stateDir?: string; config?: string; out?: string }): Promise<void> {
  const { stateDir } = locateConfig({ cliConfig: opts.config, cliStateDir: opts.stateDir, env: process.env });
  let opened;
  try {
    opened = openSessionExport(stateDir, key);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    process.stderr.write(`clawgate: ${err.detail}\n`);
    process.exitCode = 1;
    return;
  }
  const out = opts.out ? createWriteStream(opts.out, { mode: PRIVATE_FILE_MODE, flags: 'wx' }) : process.stdout;
  try {
    if (opts.out) await once(out, 'open');
    for (const chunk of opened.chunks) {
      if (!out.write(chunk)) await once(out, 'drain');
    }
  } finally {
    opened.close();
  }
  if (opts.out) {
    out.end();
    await once(out, 'finish');
    process.stderr.write(`wrote ${opts.out} (session ${opened.entry.sessionKey}, id ${opened.entry.sessionId})\n`);
  }
}
