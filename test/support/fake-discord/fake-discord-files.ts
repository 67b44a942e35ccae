import type { ServerResponse } from 'node:http';
import { parseMultipart } from '../multipart-form';
import type { DAttachment } from './discord-types';
import { snowflake } from './fake-discord-world';

/** A file a user attaches, or a bot uploaded. */
export interface FileUpload {
  name: string;
  contentType?: string;
  data: Buffer;
}

/**
 * The attachments of the fake Discord: files users attach are served at CDN-shaped URLs
 * (`<base>/attachments/<channel id>/<attachment id>/<filename>?ex=…&is=…&hm=…`, the signed form Discord has used since
 * 2023; without the signature the CDN answers 404), and the multipart bodies bots upload files with
 * (https://discord.com/developers/docs/reference#uploading-files): `payload_json` with the message's JSON and its
 * `attachments` (`id` = the n of `files[n]`), and the `files[n]` parts.
 */
export class FakeDiscordFiles {
  private readonly stored = new Map<string, Buffer>();

  constructor(private readonly baseUrl: () => string) {}

  /** Stores the file and describes it as Discord's attachment object does. */
  attach(channelId: string, file: FileUpload): DAttachment {
    const id = snowflake();
    const path = `/attachments/${channelId}/${id}/${encodeURIComponent(file.name)}`;
    this.stored.set(path, file.data);
    const expires = Math.floor(Date.now() / 1000 + 86_400).toString(16);
    const url = `${this.baseUrl()}${path}?ex=${expires}&is=${expires}&hm=${'ab'.repeat(32)}&`;
    return {
      id,
      filename: file.name,
      size: file.data.length,
      url,
      proxy_url: url,
      ...(file.contentType ? { content_type: file.contentType } : {}),
    };
  }

  /** The bytes behind an attachment's URL. */
  bytesOf(attachment: DAttachment): Buffer | undefined {
    return this.stored.get(new URL(attachment.url).pathname);
  }

  /** Forgets a file: the CDN answers 404 for it from now on. */
  remove(attachment: DAttachment): void {
    this.stored.delete(new URL(attachment.url).pathname);
  }

  /** Answers a CDN request; false when the path is not an attachment's. */
  serve(pathname: string, query: URLSearchParams, res: ServerResponse): boolean {
    if (!pathname.startsWith('/attachments/')) return false;
    const data = this.stored.get(pathname);
    if (!data || !query.get('ex') || !query.get('is') || !query.get('hm')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('This content is no longer available.');
      return true;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': data.length }).end(data);
    return true;
  }

  /** A multipart message body: the JSON of `payload_json`, and the files its `attachments` name, in that order. */
  static readUpload(raw: Buffer, contentType: string): { body: Record<string, unknown>; files: FileUpload[] } {
    const parts = parseMultipart(raw, contentType);
    const payload = parts.find((p) => p.name === 'payload_json');
    const body = payload ? (JSON.parse(payload.data.toString('utf8')) as Record<string, unknown>) : {};
    const files = parts
      .filter((p) => /^files\[\d+\]$/.test(p.name))
      .map((p) => ({ name: p.filename ?? p.name, ...(p.contentType ? { contentType: p.contentType } : {}), data: p.data }));
    const declared = Array.isArray(body.attachments) ? (body.attachments as { id?: unknown }[]) : [];
    for (const a of declared) {
      if (!parts.some((p) => p.name === `files[${String(a.id)}]`)) throw new Error(`attachments[].id ${String(a.id)} has no files[n] part`);
    }
    return { body, files };
  }
}
