import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { PRIVATE_FILE_MODE } from '../common/fs/private-files';
import { AppError } from '../common/errors/app-error';
import { locateConfig } from '../modules/config';
import { openSessionExport } from '../modules/sessions';
import { learnExportSecrets } from './export-secrets';

/**
 * `clawgate sessions export <key>`: the transcript as JSONL on stdout, or in `--out <file>` (created 0600:
 * transcripts are as private as the state dir they come from), with the configured secrets masked as the gateway's
 * export endpoint masks them (export-secrets.ts). Reads the database read-only, so a running gateway is neither
 * needed nor disturbed. Every outcome names the state dir read, on stderr (the CLI's default is not `npm start`'s).
 */
export async function runSessionsExport(key: string, opts: { stateDir?: string; config?: string; out?: string }): Promise<void> {
  const located = locateConfig({ cliConfig: opts.config, cliStateDir: opts.stateDir, env: process.env });
  let opened;
  try {
    opened = openSessionExport(located.stateDir, key);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return refuse(`${err.detail} (state dir ${located.stateDir})`);
  }
  // After the session is found (its errors come first), before a byte is read: nothing is written unmasked.
  const secrets = await learnExportSecrets(located);
  if (secrets.problem) {
    opened.close();
    return refuse(secrets.problem);
  }
  const out = opts.out ? createWriteStream(opts.out, { mode: PRIVATE_FILE_MODE, flags: 'wx' }) : process.stdout;
  try {
    if (opts.out) await once(out, 'open');
    for await (const chunk of opened.chunks) {
      if (!out.write(chunk)) await once(out, 'drain');
    }
  } finally {
    opened.close();
  }
  const what = `session ${opened.entry.sessionKey}, id ${opened.entry.sessionId}, from state dir ${located.stateDir}`;
  if (opts.out) {
    out.end();
    await once(out, 'finish');
    process.stderr.write(`wrote ${opts.out} (${what})\n`);
  } else {
    process.stderr.write(`exported ${what}\n`);
  }
}

function refuse(message: string): void {
  process.stderr.write(`clawgate: ${message}\n`);
  process.exitCode = 1;
}
