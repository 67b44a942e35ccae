import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseMultipart } from '../multipart-form';
import { SlackApiError } from './fake-slack-app';
import type { SlackFile } from './slack-types';

/** A file in the fake workspace: one a person shared, or one an app uploaded. */
interface StoredFile {
  id: string;
  name: string;
  mimetype: string;
  data: Buffer;
  /** An app's upload: the length `files.getUploadURLExternal` announced, and whether its bytes came. */
  announced?: number;
  uploaded?: boolean;
}

/** A file an app shared with `files.completeUploadExternal`, as the test inspects it. */
export interface SharedUpload {
  channel: string;
  threadTs?: string;
  initialComment?: string;
  name: string;
  title?: string;
  data: Buffer;
}

let nextFile = 1;

/**
 * Files in the fake Slack (https://api.slack.com/types/file, https://api.slack.com/messaging/files):
 * - a file someone shares is described on the message event (`files`, subtype `file_share`) with `url_private` and
 *   `url_private_download`, which answer its bytes only with `Authorization: Bearer <bot token>` of an app that
 *   sees it — without the token Slack redirects to its sign-in page (302);
 * - an app uploads in three steps: `files.getUploadURLExternal` (`filename`, `length`) gives an `upload_url` and a
 *   `file_id`; the bytes are POSTed there (raw, or as multipart/form-data); `files.completeUploadExternal`
 *   (`files` = JSON `[{id, title}]`, `channel_id`, `thread_ts`, `initial_comment`) shares them.
 */
export class FakeSlackFiles {
  private readonly files = new Map<string, StoredFile>();
  readonly shared: SharedUpload[] = [];

  constructor(private readonly origin: () => string) {}

  /** A file a person shares: stored, and described as the event's `files` entry. */
  share(name: string, mimetype: string, data: Buffer): SlackFile {
    const id = `F0${String(nextFile++).padStart(8, '0')}`;
    this.files.set(id, { id, name, mimetype, data });
    const base = `${this.origin()}/files-pri/T0-${id}`;
    return {
      id,
      name,
      title: name,
      mimetype,
      filetype: name.split('.').pop() ?? 'binary',
      size: data.length,
      url_private: `${base}/${encodeURIComponent(name)}`,
      url_private_download: `${base}/download/${encodeURIComponent(name)}`,
    };
  }

  /** Forgets a file (deleted): its URLs answer 404. */
  remove(file: SlackFile): void {
    this.files.delete(file.id);
  }

  /** Serves `url_private(_download)` and the upload URLs; false for other paths. */
  async serve(req: IncomingMessage, res: ServerResponse, pathname: string, botTokens: readonly string[]): Promise<boolean> {
    const file = /^\/files-pri\/T0-(F0\d+)\/(?:download\/)?[^/]+$/.exec(pathname);
    if (file) {
      const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      if (!bearer || !botTokens.includes(bearer)) {
        res.writeHead(302, { location: `${this.origin()}/?redir=${encodeURIComponent(pathname)}` }).end();
        return true;
      }
      const stored = this.files.get(file[1]);
      if (!stored) res.writeHead(404, { 'content-type': 'text/plain' }).end('file_not_found');
      else res.writeHead(200, { 'content-type': stored.mimetype, 'content-length': stored.data.length }).end(stored.data);
      return true;
    }
    const upload = /^\/upload\/v1\/(F0\d+)$/.exec(pathname);
    if (!upload) return false;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const stored = this.files.get(upload[1]);
    if (req.method !== 'POST' || !stored || stored.announced === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return true;
    }
    const type = req.headers['content-type'] ?? '';
    const data = /^multipart\/form-data/i.test(type) ? (parseMultipart(raw, type).find((p) => p.filename !== undefined)?.data ?? raw) : raw;
    stored.data = data;
    stored.uploaded = true;
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`OK - ${data.length}`);
    return true;
  }

  getUploadURLExternal(params: Record<string, unknown>): Record<string, unknown> {
    const name = typeof params.filename === 'string' ? params.filename : '';
    const length = Number(params.length);
    if (!name) throw new SlackApiError('invalid_arguments');
    if (!Number.isInteger(length) || length < 1) throw new SlackApiError('invalid_arguments');
    const id = `F0${String(nextFile++).padStart(8, '0')}`;
    this.files.set(id, { id, name, mimetype: 'application/octet-stream', data: Buffer.alloc(0), announced: length });
    return { upload_url: `${this.origin()}/upload/v1/${id}`, file_id: id };
  }

  /** Shares the uploaded files in `channel` (the conversation the app's `conversationOf` found). */
  completeUploadExternal(params: Record<string, unknown>, channel: string | undefined): Record<string, unknown> {
    let list: { id?: unknown; title?: unknown }[];
    try {
      list = typeof params.files === 'string' ? (JSON.parse(params.files) as typeof list) : (params.files as typeof list);
    } catch {
      throw new SlackApiError('invalid_arguments');
    }
    if (!Array.isArray(list) || !list.length) throw new SlackApiError('invalid_arguments');
    const files = list.map((entry) => {
      const stored = this.files.get(String(entry.id));
      if (!stored?.uploaded) throw new SlackApiError('file_not_found');
      if (stored.data.length !== stored.announced) throw new SlackApiError('file_upload_size_mismatch');
      return { stored, title: typeof entry.title === 'string' ? entry.title : undefined };
    });
    const threadTs = typeof params.thread_ts === 'string' && params.thread_ts ? params.thread_ts : undefined;
    const comment = typeof params.initial_comment === 'string' ? params.initial_comment : undefined;
    if (channel) {
      for (const { stored, title } of files) {
        this.shared.push({
          channel,
          ...(threadTs ? { threadTs } : {}),
          ...(comment ? { initialComment: comment } : {}),
          name: stored.name,
          ...(title ? { title } : {}),
          data: stored.data,
        });
      }
    }
    return { files: files.map(({ stored, title }) => ({ id: stored.id, title: title ?? stored.name })), request_id: randomUUID() };
  }
}
