import type { WebClient } from '@slack/web-api';
import type { ChannelContext, ChannelFile, ChannelInboundFile } from '../../plugin-sdk';
import type { SlackAccountConfig } from './slack-config';

/** A file object on a message event (https://api.slack.com/types/file), the fields the channel reads. */
export interface SlackFileObject {
  id?: string;
  name?: string;
  title?: string;
  mimetype?: string;
  size?: number;
  url_private?: string;
  url_private_download?: string;
}

/** Slack's host for files' private URLs. */
const FILES_HOST = 'files.slack.com';

/**
 * One bot's files: a message's shared files downloaded from `url_private_download` (else `url_private`) with the bot
 * token as `Authorization: Bearer`, through the gateway's guarded calls — only from Slack's file host or the host of
 * the account's `apiUrl` (a test's fake), since the URL comes in an event and the token goes with it; and files sent
 * by Slack's upload flow (`files.getUploadURLExternal`, the bytes POSTed to the URL it gives,
 * `files.completeUploadExternal` sharing them in the conversation), through WebClient's `filesUploadV2`.
 */
export class SlackFiles {
  private readonly apiHost: string;

  constructor(
    private readonly web: WebClient,
    private readonly config: Pick<SlackAccountConfig, 'botToken' | 'apiUrl'>,
    private readonly context: Pick<ChannelContext, 'request'>,
  ) {
    this.apiHost = new URL(config.apiUrl).host;
  }

  /** The files shared with a message, as the gateway takes them (a file Slack does not give a URL for is left out). */
  inboundFiles(files: readonly SlackFileObject[] | undefined): ChannelInboundFile[] {
    return (files ?? [])
      .filter((f) => typeof (f.url_private_download ?? f.url_private) === 'string')
      .map((f) => ({
        name: f.name ?? f.title ?? f.id ?? 'file',
        mimeType: f.mimetype ?? 'application/octet-stream',
        ...(typeof f.size === 'number' ? { size: f.size } : {}),
        download: (maxBytes: number) => this.download((f.url_private_download ?? f.url_private)!, maxBytes),
      }));
  }

  private async download(address: string, maxBytes: number): Promise<Buffer> {
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      throw new Error('Slack gave the file no valid address');
    }
    if (url.host !== FILES_HOST && url.host !== this.apiHost) throw new Error(`the file is on ${url.host}, which is not Slack's file host`);
    let response;
    try {
      response = await this.context.request({
        url: url.href,
        setting: 'channels.slack.apiUrl',
        headers: { authorization: `Bearer ${this.config.botToken}` },
        maxBytes,
        kind: 'channel:slack:file',
      });
    } catch (error) {
      // A redirect is Slack's sign-in page: the bot may not read the file (the files:read scope).
      throw new Error(`the download from Slack failed: ${(error as Error).message}`);
    }
    if (response.status !== 200) throw new Error(`Slack answered the download with HTTP ${response.status}`);
    return response.body;
  }

  /** Shares the files in the conversation (a user id: their DM, opened first), in the thread when given. */
  async upload(peer: string, files: readonly ChannelFile[], threadTs?: string): Promise<void> {
    const channel = /^[UW]/.test(peer) ? (await this.web.conversations.open({ users: peer })).channel?.id : peer;
    if (!channel) throw new Error(`Slack opened no DM with ${peer}`);
    await this.web.filesUploadV2({
      channel_id: channel,
      ...(threadTs ? { thread_ts: threadTs } : {}),
      file_uploads: files.map((f) => ({ file: f.data, filename: f.name })),
    });
  }
}
