import type { FormPart } from '../multipart-form';

/** A file a bot uploaded in a multipart request (https://core.telegram.org/bots/api#sending-files). */
export interface UploadedFile {
  kind: 'upload';
  filename: string;
  data: Buffer;
}

/** A file the bot sent with sendDocument or sendPhoto, as the test inspects it. */
export interface BotUpload {
  chatId: number;
  messageId: number;
  method: 'sendDocument' | 'sendPhoto';
  filename: string;
  data: Buffer;
  threadId?: number;
  caption?: string;
}

/** Telegram's cap on what getFile serves a bot (https://core.telegram.org/bots/api#getfile). */
export const MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;

/**
 * The parameters of a multipart/form-data request: text fields as strings; a file part as an UploadedFile under its
 * own name, and under the parameter whose value `attach://<name>` points to it.
 */
export function formParams(parts: readonly FormPart[]): Record<string, unknown> {
  const files = new Map(parts.filter((p) => p.filename !== undefined).map((p) => [p.name, p]));
  const upload = (part: FormPart): UploadedFile => ({ kind: 'upload', filename: part.filename ?? part.name, data: part.data });
  const params: Record<string, unknown> = {};
  for (const part of parts) {
    if (part.filename !== undefined) {
      params[part.name] ??= upload(part);
      continue;
    }
    const value = part.data.toString('utf8');
    const attach = /^attach:\/\/(.+)$/.exec(value);
    if (!attach) {
      params[part.name] = value;
      continue;
    }
    const file = files.get(attach[1]);
    if (!file) throw new Error(`Bad Request: file "${attach[1]}" of ${part.name} not found in the request`);
    params[part.name] = upload(file);
  }
  return params;
}

export function isUploadedFile(value: unknown): value is UploadedFile {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'upload';
}
