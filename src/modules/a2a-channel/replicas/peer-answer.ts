import type { FilePart } from '../protocol/message-parts';

/** A peer's answer to a task's INPUT_REQUIRED, as read from its SendMessage (text, files, its message id). */
export interface PeerAnswer {
  messageId: string;
  text: string;
  files: FilePart[];
}

/** A file part as JSON: its bytes in base64. */
type ForwardedFile = Omit<Extract<FilePart, { kind: 'raw' }>, 'bytes'> & { bytes: string };

/**
 * The answer as JSON for the replica whose run asked (remote-task-inputs.ts): the message was read and checked here,
 * the owner only turns it back into what its own SendMessage would have read.
 */
export function forwardedAnswer(answer: PeerAnswer): unknown {
  return {
    messageId: answer.messageId,
    text: answer.text,
    files: answer.files.map((f) => (f.kind === 'raw' ? { ...f, bytes: f.bytes.toString('base64') } : f)),
  };
}

/** The answer another replica forwarded; undefined when it is not one (it never is, unless a message was garbled). */
export function readForwardedAnswer(json: unknown): PeerAnswer | undefined {
  const a = json as { messageId?: unknown; text?: unknown; files?: unknown } | null;
  if (typeof a !== 'object' || a === null || typeof a.messageId !== 'string' || typeof a.text !== 'string' || !Array.isArray(a.files))
    return undefined;
  const files: FilePart[] = [];
  for (const f of a.files as Array<Partial<ForwardedFile> | Partial<Extract<FilePart, { kind: 'url' }>>>) {
    if (f?.kind === 'raw' && typeof f.bytes === 'string') files.push({ ...(f as ForwardedFile), bytes: Buffer.from(f.bytes, 'base64') });
    else if (f?.kind === 'url' && typeof f.url === 'string') files.push(f as Extract<FilePart, { kind: 'url' }>);
    else return undefined;
  }
  return { messageId: a.messageId, text: a.text, files };
}
