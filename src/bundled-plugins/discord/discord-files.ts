import type { Message, SendableChannels } from 'discord.js';
import type { ChannelContext, ChannelFile, ChannelInboundFile } from '../../plugin-sdk';

/** What a message says of one attachment (https://discord.com/developers/docs/resources/message#attachment-object). */
export interface AttachmentRef {
  url: string;
  name: string;
  contentType?: string;
  size: number;
}

/** Discord's CDN hosts, where attachment URLs point. */
const CDN_HOSTS = new Set(['cdn.discordapp.com', 'media.discordapp.net']);

export function attachmentRefsOf(message: Message): AttachmentRef[] {
  return [...message.attachments.values()].map((a) => ({
    url: a.url,
    name: a.name,
    ...(a.contentType ? { contentType: a.contentType } : {}),
    size: a.size,
  }));
}

/**
 * One bot's files: attachments downloaded from their CDN URL through the gateway's guarded calls (only a URL on
 * Discord's CDN, or on the host of the account's `api` — a self-hosted proxy or a test's fake — is fetched: the URL
 * comes in a message, so the host is checked here), and files sent as a message's attachments (multipart `files[n]`
 * with `payload_json`, through discord.js). CDN URLs carry no credential; the bot token is never sent to the CDN.
 */
export class DiscordFiles {
  private readonly apiHost: string;

  constructor(
    api: string,
    private readonly context: Pick<ChannelContext, 'request'>,
  ) {
    this.apiHost = new URL(api).host;
  }

  inboundFiles(refs: readonly AttachmentRef[]): ChannelInboundFile[] {
    return refs.map((ref) => ({
      name: ref.name,
      mimeType: ref.contentType ?? 'application/octet-stream',
      size: ref.size,
      download: (maxBytes: number) => this.download(ref, maxBytes),
    }));
  }

  private async download(ref: AttachmentRef, maxBytes: number): Promise<Buffer> {
    let url: URL;
    try {
      url = new URL(ref.url);
    } catch {
      throw new Error('Discord gave the attachment no valid address');
    }
    if (!CDN_HOSTS.has(url.host) && url.host !== this.apiHost) {
      throw new Error(`the attachment is on ${url.host}, which is not Discord's CDN`);
    }
    let response;
    try {
      response = await this.context.request({ url: url.href, setting: 'channels.discord.api', maxBytes, kind: 'channel:discord:file' });
    } catch (error) {
      throw new Error(`the download from Discord failed: ${(error as Error).message}`);
    }
    if (response.status !== 200) throw new Error(`Discord's CDN answered the download with HTTP ${response.status}`);
    return response.body;
  }

  /** Sends the files as one message's attachments (Discord takes up to 10 a message); the ids of the messages. */
  async upload(channel: SendableChannels, files: readonly ChannelFile[]): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < files.length; i += 10) {
      const batch = files.slice(i, i + 10).map((f) => ({ attachment: f.data, name: f.name, contentType: f.mimeType }));
      ids.push((await channel.send({ files: batch })).id);
    }
    return ids;
  }
}
