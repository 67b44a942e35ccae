import { InputFile, type Api } from 'grammy';
import type { Message } from 'grammy/types';
import type { ChannelContext, ChannelFile, ChannelInboundFile } from '../../plugin-sdk';
import type { TelegramAccountConfig } from './telegram-config';
import { describeTelegramError } from './telegram-errors';

/** What a message says of one file it carries (https://core.telegram.org/bots/api#message). */
interface FileRef {
  fileId: string;
  name: string;
  mimeType: string;
  size?: number;
}

/** The photo types sendPhoto takes; anything else goes as a document (https://core.telegram.org/bots/api#sendphoto). */
const PHOTO_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);
/** sendPhoto's size limit; a larger image goes as a document (up to 50 MB). */
const MAX_PHOTO_BYTES = 10 * 1024 * 1024;

/**
 * The files of a message: a document, audio, video, voice note or animation as Telegram names and types it; a photo
 * as its largest size (Telegram sends several, the last the largest), named `photo-<message id>.jpg`.
 */
export function fileRefsOf(message: Message): FileRef[] {
  const refs: FileRef[] = [];
  const id = message.message_id;
  const add = (
    file: { file_id: string; file_size?: number; file_name?: string; mime_type?: string } | undefined,
    name: string,
    mimeType: string,
  ) => {
    if (!file) return;
    refs.push({
      fileId: file.file_id,
      name: file.file_name ?? name,
      mimeType: file.mime_type ?? mimeType,
      ...(file.file_size !== undefined ? { size: file.file_size } : {}),
    });
  };
  const photo = message.photo?.at(-1);
  add(photo, `photo-${id}.jpg`, 'image/jpeg');
  // An animation comes with a `document` describing the same file, for older clients: it is one file.
  if (!message.animation) add(message.document, `document-${id}`, 'application/octet-stream');
  add(message.animation, `animation-${id}.mp4`, 'video/mp4');
  add(message.audio, `audio-${id}.mp3`, 'audio/mpeg');
  add(message.video, `video-${id}.mp4`, 'video/mp4');
  add(message.voice, `voice-${id}.ogg`, 'audio/ogg');
  return refs;
}

/**
 * One bot's files: downloads by `getFile`, then `GET <apiRoot>/file/bot<token>/<file_path>` through the gateway's
 * guarded calls (the apiRoot is the config's; the audit line names the host only), and uploads by sendPhoto or
 * sendDocument (multipart, through grammY). The download URL holds the bot token: no error here ever quotes it.
 */
export class TelegramFiles {
  constructor(
    private readonly api: Api,
    private readonly config: TelegramAccountConfig,
    private readonly context: Pick<ChannelContext, 'request'>,
  ) {}

  /** The message's files as the gateway takes them: metadata now, the bytes when it asks. */
  inboundFiles(message: Message): ChannelInboundFile[] {
    return fileRefsOf(message).map((ref) => ({
      name: ref.name,
      mimeType: ref.mimeType,
      ...(ref.size !== undefined ? { size: ref.size } : {}),
      download: (maxBytes: number) => this.download(ref.fileId, maxBytes),
    }));
  }

  async download(fileId: string, maxBytes: number): Promise<Buffer> {
    let filePath: string | undefined;
    try {
      filePath = (await this.api.getFile(fileId)).file_path;
    } catch (error) {
      // "file is too big": Telegram serves bots files of up to 20 MB.
      throw new Error(`Telegram did not give the file: ${describeTelegramError(this.config.accountId, error)}`);
    }
    if (!filePath) throw new Error('Telegram gave no download path for the file');
    const url = `${this.config.apiRoot}/file/bot${this.config.botToken}/${filePath.split('/').map(encodeURIComponent).join('/')}`;
    let response;
    try {
      response = await this.context.request({ url, setting: 'channels.telegram.apiRoot', maxBytes, kind: 'channel:telegram:file' });
    } catch (error) {
      // The transport's messages name the host at most; the URL is never in them.
      throw new Error(`the download from Telegram failed: ${(error as Error).message}`);
    }
    if (response.status !== 200) throw new Error(`Telegram answered the download with HTTP ${response.status}`);
    return response.body;
  }

  /** Sends one file: an image within 10 MB as a photo, anything else as a document; the message's id. */
  async upload(chatId: number | string, file: ChannelFile, options: { message_thread_id?: number; caption?: string }): Promise<number> {
    const input = new InputFile(file.data, file.name);
    const sent =
      PHOTO_TYPES.has(file.mimeType) && file.data.length <= MAX_PHOTO_BYTES
        ? await this.api.sendPhoto(chatId, input, options)
        : await this.api.sendDocument(chatId, input, options);
    return sent.message_id;
  }
}
