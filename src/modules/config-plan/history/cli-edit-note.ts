import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../../../common/fs/atomic-write';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../../common/fs/private-files';

/**
 * The CLI edits openclaw.json while a gateway may be running; the gateway then applies the edit like any
 * file edit. So that its history says `cli` rather than `file`, the CLI leaves this note (the content hash
 * the edit will have, and who ran it) right before it writes; the gateway takes the note when it applies a
 * revision with that hash (at once, or at its next start).
 */
const NOTE = 'config-cli-edit.json';

interface CliEditNote {
  contentHash: string;
  subject: string;
}

export async function leaveCliEditNote(stateDir: string, contentHash: string, subject: string): Promise<void> {
  await fs.mkdir(stateDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const note: CliEditNote = { contentHash, subject };
  await writeFileAtomic(path.join(stateDir, NOTE), `${JSON.stringify(note)}\n`, { newFileMode: PRIVATE_FILE_MODE });
}

/** The subject of the CLI edit that produced `contentHash`, removing the note; undefined when it was not one. */
export async function takeCliEditNote(stateDir: string, contentHash: string): Promise<string | undefined> {
  const file = path.join(stateDir, NOTE);
  let note: CliEditNote;
  try {
    note = JSON.parse(await fs.readFile(file, 'utf8')) as CliEditNote;
  } catch {
    return undefined;
  }
  if (note.contentHash !== contentHash || typeof note.subject !== 'string') return undefined;
  await fs.rm(file, { force: true });
  return note.subject;
}
