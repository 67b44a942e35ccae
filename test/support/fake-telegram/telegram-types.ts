/** The Bot API objects the fake speaks (https://core.telegram.org/bots/api#available-types), the fields it uses. */
export interface TgUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  username?: string;
}

export interface TgChat {
  id: number;
  type: 'private' | 'group' | 'supergroup' | 'channel';
  title?: string;
  username?: string;
  first_name?: string;
  is_forum?: true;
}

export interface TgEntity {
  type: string;
  offset: number;
  length: number;
}

export interface TgDocument {
  file_id: string;
  file_unique_id: string;
  file_name?: string;
  mime_type?: string;
  file_size?: number;
}

export interface TgPhotoSize {
  file_id: string;
  file_unique_id: string;
  width: number;
  height: number;
  file_size?: number;
}

export interface TgMessage {
  message_id: number;
  from?: TgUser;
  chat: TgChat;
  date: number;
  edit_date?: number;
  text?: string;
  caption?: string;
  entities?: TgEntity[];
  message_thread_id?: number;
  is_topic_message?: true;
  reply_to_message?: TgMessage;
  document?: TgDocument;
  photo?: TgPhotoSize[];
}

export interface TgUpdate {
  update_id: number;
  message?: TgMessage;
  edited_message?: TgMessage;
  channel_post?: TgMessage;
}

/** One call a bot made, as the fake received it (params merged from the query string and the body). */
export interface RecordedCall {
  method: string;
  params: Record<string, unknown>;
  /** What the fake answered: the `result`, or the error's description. */
  ok: boolean;
  result?: unknown;
  description?: string;
}

/** A message the bot sent, with what it said after each edit (the first entry is the text it was sent with). */
export interface BotMessage {
  chatId: number;
  messageId: number;
  threadId?: number;
  replyTo?: number;
  parseMode?: string;
  /** The text as Telegram shows it (entities parsed), now. */
  text: string;
  /** The raw `text` parameter of the send and of each edit, in order. */
  versions: string[];
}
