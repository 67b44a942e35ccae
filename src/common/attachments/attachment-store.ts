import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../fs/private-files';

/** Longest sanitised name (before the part number), with room kept for the extension. */
const MAX_NAME_CHARS = 100;
const MAX_EXTENSION_CHARS = 16;

/**
 * Where the stored files of one message live, relative to the state dir (docs/a2a.md#files,
 * docs/channels.md#files): `agents/<agentId>/attachments/<id>` — an A2A task's id, or a chat message's generated
 * id. Both ids are the gateway's own (a normalized agent id, a generated id), never a sender's text.
 */
export function attachmentDir(agentId: string, id: string): string {
  return `agents/${agentId}/attachments/${id}`;
}

/**
 * A file name that is safe to create: the last path segment of the sender's filename, with every character
 * outside `A-Za-z0-9._-` replaced by `_` and leading dots removed (no hidden files, no `..`), shortened, and
 * prefixed with the part number — which also keeps two parts of one message apart.
 */
export function safeAttachmentName(part: number, filename: string | undefined): string {
  const last = (filename ?? '').split(/[/\\]/).pop() ?? '';
  let name = last
    .normalize('NFKC')
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '');
  if (name.length > MAX_NAME_CHARS) {
    const dot = name.lastIndexOf('.');
    const extension = dot > 0 && name.length - dot <= MAX_EXTENSION_CHARS ? name.slice(dot) : '';
    name = name.slice(0, MAX_NAME_CHARS - extension.length) + extension;
  }
  return `${part}-${name || 'attachment'}`;
}

/**
 * Writes the files of one message under `<stateDir>/<dir>`: directories 0700, files 0600 (they hold what a sender
 * sent, like the transcripts), never over an existing file. A name that would leave the directory is refused
 * (safeAttachmentName never makes one; this keeps it so).
 */
export async function writeAttachments(
  stateDir: string,
  dir: string,
  files: ReadonlyArray<{ name: string; bytes: Buffer }>,
): Promise<void> {
  if (!files.length) return;
  const root = path.resolve(stateDir, dir);
  await fs.mkdir(root, { recursive: true, mode: PRIVATE_DIR_MODE });
  for (const { name, bytes } of files) {
    const target = path.resolve(root, name);
    if (path.dirname(target) !== root) throw new Error(`attachment name ${JSON.stringify(name)} leaves its directory`);
    await fs.writeFile(target, bytes, { flag: 'wx', mode: PRIVATE_FILE_MODE });
  }
}
