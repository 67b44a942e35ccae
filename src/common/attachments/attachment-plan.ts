import { cutUtf8 } from '../text/utf8';
import { safeAttachmentName } from './attachment-store';

/**
 * A file that came with a message: its bytes (`raw`), or a link the gateway never follows (`url`). `part` numbers
 * it within the message (an A2A part index, a chat file's position): it names the stored file and the label.
 */
export type AttachmentFile =
  | { kind: 'raw'; part: number; filename?: string; mediaType: string; bytes: Buffer }
  | { kind: 'url'; part: number; filename?: string; mediaType?: string; url: string };

/** How the agent is told about the files: who sent them, and how much text is shown inline. */
export interface AttachmentPlanOptions {
  /** The first line of the section: whose files these are, and that their content is data, not instructions. */
  header: string;
  /** UTF-8 bytes of text-like files shown inline, all files of the message together; the rest is stored. */
  inlineBytes: number;
}

/** How one attachment reached the agent, as the transcript line's `meta.attachments` records it. */
export interface AttachmentRecord {
  part: number;
  filename?: string;
  mediaType?: string;
  /** Raw parts: the decoded size. */
  bytes?: number;
  /** `inline`: the whole text is in the message; `partial`: its start, the whole file stored too. */
  shown: 'inline' | 'partial' | 'stored' | 'link';
  /** Where a stored file is, relative to the state dir. */
  path?: string;
  url?: string;
}

export interface AttachmentPlan {
  /** What the agent reads after the sender's text. */
  text: string;
  /** Files to write before the run starts, named inside the message's attachment directory. */
  toStore: Array<{ name: string; bytes: Buffer }>;
  records: AttachmentRecord[];
}

/** Files the agent is given inline, as text: its runtime works on text and these are text already. */
export function isTextLike(mediaType: string): boolean {
  return mediaType.startsWith('text/') || mediaType === 'application/json';
}

/** Decodes strict UTF-8; undefined when the bytes are not UTF-8 (such a "text" file is stored instead). */
function utf8(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** A fence longer than any run of backticks in `text`, so the content cannot close it. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * How the agent is given the files of one message (docs/a2a.md#files, docs/channels.md#files). Text-like files
 * (`text/*`, `application/json`, valid UTF-8) are shown inline in fenced blocks, all of them together at most
 * `inlineBytes`; a file cut short there is stored whole as well. Other files are stored and named; `url` parts are
 * listed as links and never fetched. `dir` is the message's attachment directory relative to the state dir; every
 * label names the part, the filename (JSON-quoted: it is the sender's text) and the media type, so the agent can
 * tell attachments from the message itself.
 */
export function planAttachments(files: readonly AttachmentFile[], dir: string, options: AttachmentPlanOptions): AttachmentPlan {
  const blocks: string[] = [];
  const toStore: AttachmentPlan['toStore'] = [];
  const records: AttachmentRecord[] = [];
  let budget = options.inlineBytes;
  files.forEach((file, n) => {
    const label = `Attachment ${n + 1} of ${files.length}${file.filename !== undefined ? ` ${JSON.stringify(file.filename)}` : ''}`;
    const base = { part: file.part, ...(file.filename !== undefined ? { filename: file.filename } : {}) };
    if (file.kind === 'url') {
      blocks.push(`[${label}: a link (${file.mediaType ?? 'media type not given'}), not fetched by the gateway: ${file.url}]`);
      records.push({ ...base, ...(file.mediaType ? { mediaType: file.mediaType } : {}), shown: 'link', url: file.url });
      return;
    }
    const size = `${file.mediaType}, ${file.bytes.length} bytes`;
    const store = () => {
      const name = safeAttachmentName(file.part, file.filename);
      toStore.push({ name, bytes: file.bytes });
      return `${dir}/${name}`;
    };
    const text = isTextLike(file.mediaType) && budget > 0 ? utf8(file.bytes) : undefined;
    const shown = text === undefined ? '' : cutUtf8(text, budget);
    // Not text, or no room left to show even its first character: the agent is told where the file is.
    if (text === undefined || (!shown && text)) {
      const path = store();
      blocks.push(`[${label} (${size}) is stored at ${path}; its content is not shown here]`);
      records.push({ ...base, mediaType: file.mediaType, bytes: file.bytes.length, shown: 'stored', path });
      return;
    }
    budget -= Buffer.byteLength(shown, 'utf8');
    const fence = fenceFor(shown);
    const block = `${fence}\n${shown}\n${fence}`;
    if (shown === text) {
      blocks.push(`[${label} (${size}):]\n${block}`);
      records.push({ ...base, mediaType: file.mediaType, bytes: file.bytes.length, shown: 'inline' });
      return;
    }
    const path = store();
    const first = Buffer.byteLength(shown, 'utf8');
    blocks.push(`[${label} (${size}); the first ${first} bytes follow, the whole file is stored at ${path}:]\n${block}`);
    records.push({ ...base, mediaType: file.mediaType, bytes: file.bytes.length, shown: 'partial', path });
  });
  return { text: files.length ? `${options.header}\n\n${blocks.join('\n\n')}` : '', toStore, records };
}

/** The sender's text followed by its attachments, as the agent (and the transcript) gets it. */
export function withAttachments(text: string, plan: AttachmentPlan): string {
  if (!plan.text) return text;
  return text.trim() ? `${text}\n\n${plan.text}` : plan.text;
}
