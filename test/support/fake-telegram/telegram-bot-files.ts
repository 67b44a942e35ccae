import type { TelegramChats } from './telegram-chats';
import { badRequest, now, str } from './telegram-params';
import type { TgMessage, TgUser } from './telegram-types';
import { type BotUpload, isUploadedFile, MAX_DOWNLOAD_BYTES } from './telegram-uploads';

export interface StoredFile {
  filePath: string;
  data: Buffer;
  name?: string;
  mimeType?: string;
}

/** What the file methods read and change of a bot. */
export interface BotFilesContext {
  user: TgUser;
  chats: TelegramChats;
  files: Map<string, StoredFile>;
  uploads: BotUpload[];
}

/** `getFile`: the file's `file_path` for the download URL; refused above what Telegram serves bots. */
export function getFile(bot: BotFilesContext, params: Record<string, unknown>): unknown {
  const id = str(params.file_id);
  const file = bot.files.get(id);
  if (!file) throw badRequest('invalid file_id');
  if (file.data.length > MAX_DOWNLOAD_BYTES) throw badRequest('file is too big');
  return { file_id: id, file_unique_id: `u${id}`, file_size: file.data.length, file_path: file.filePath };
}

/** sendDocument / sendPhoto with the file uploaded in the request (a file_id the bot knows is sent again). */
export function sendFile(bot: BotFilesContext, params: Record<string, unknown>, field: 'document' | 'photo'): TgMessage {
  const chat = bot.chats.chatOf(params.chat_id);
  const given = params[field];
  const known = typeof given === 'string' ? bot.files.get(given) : undefined;
  const file = isUploadedFile(given) ? given : known ? { filename: known.name ?? field, data: known.data } : undefined;
  if (!file)
    throw badRequest(typeof given === 'string' ? 'wrong file identifier/HTTP URL specified' : `there is no ${field} in the request`);
  const threadId = bot.chats.threadOf(chat.id, params);
  const fileId = `${field}${bot.files.size + 1}`;
  bot.files.set(fileId, { filePath: `${field}s/file_${bot.files.size}`, data: file.data, name: file.filename });
  const ref = { file_id: fileId, file_unique_id: `u${fileId}`, file_size: file.data.length };
  const caption = params.caption === undefined ? undefined : str(params.caption);
  const message: TgMessage = {
    message_id: bot.chats.takeMessageId(chat.id),
    from: bot.user,
    chat,
    date: now(),
    ...(caption ? { caption } : {}),
    ...(threadId !== undefined ? { message_thread_id: threadId, is_topic_message: true as const } : {}),
    ...(field === 'document' ? { document: { ...ref, file_name: file.filename } } : { photo: [{ ...ref, width: 1, height: 1 }] }),
  };
  bot.chats.messagesOf(chat.id).set(message.message_id, message);
  const method = field === 'document' ? 'sendDocument' : 'sendPhoto';
  bot.uploads.push({
    chatId: chat.id,
    messageId: message.message_id,
    method,
    filename: file.filename,
    data: file.data,
    ...(threadId !== undefined ? { threadId } : {}),
    ...(caption ? { caption } : {}),
  });
  return message;
}
