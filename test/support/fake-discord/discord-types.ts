/**
 * The parts of Discord's API objects the fake serves (https://discord.com/developers/docs/resources), with their
 * documented field names. Ids are snowflakes: decimal strings of a 64-bit number whose top bits are a timestamp.
 */

export interface DUser {
  id: string;
  username: string;
  global_name: string | null;
  discriminator: string;
  avatar: string | null;
  bot?: boolean;
}

/** Channel types used here: 0 GUILD_TEXT, 1 DM, 11 PUBLIC_THREAD. */
export type DChannelType = 0 | 1 | 11;

export interface DChannel {
  id: string;
  type: DChannelType;
  guild_id?: string;
  name?: string;
  /** A thread's parent channel. */
  parent_id?: string;
  /** A DM's other party. */
  recipients?: DUser[];
  last_message_id: string | null;
}

export interface DGuild {
  id: string;
  name: string;
  owner_id: string;
}

/** https://discord.com/developers/docs/resources/message#attachment-object (the fields the fake uses). */
export interface DAttachment {
  id: string;
  filename: string;
  size: number;
  url: string;
  proxy_url: string;
  content_type?: string;
}

export interface DMessage {
  id: string;
  type: 0 | 19; // DEFAULT, REPLY
  channel_id: string;
  guild_id?: string;
  author: DUser;
  content: string;
  timestamp: string;
  edited_timestamp: string | null;
  tts: boolean;
  mention_everyone: boolean;
  mentions: DUser[];
  mention_roles: string[];
  attachments: DAttachment[];
  embeds: unknown[];
  pinned: boolean;
  message_reference?: { type?: number; message_id: string; channel_id: string; guild_id?: string };
  referenced_message?: DMessage | null;
}

/** A REST call as the fake received it. */
export interface RecordedCall {
  method: string;
  /** The route after `/api/v10`, e.g. `/channels/123/messages`. */
  route: string;
  body: unknown;
  status: number;
}

/** A message a bot sent, with every text it showed (the first send, then each edit). */
export interface BotMessage {
  id: string;
  channelId: string;
  content: string;
  versions: string[];
  /** The message it answers (`message_reference.message_id`). */
  replyTo?: string;
  /** The files it carries (their bytes: `FakeDiscordServer.attachmentBytes`). */
  attachments?: DAttachment[];
}
