/** The shapes the fake Slack speaks (https://api.slack.com/events, https://api.slack.com/apis/socket-mode). */

/** A person in the fake workspace. */
export interface SlackUser {
  id: string;
  name: string;
  realName: string;
  teamId: string;
}

/** A conversation: a DM (`D…`, `im`), a public (`C…`, `channel`) or private (`G…`, `group`) channel, a group DM (`mpim`). */
export interface SlackConversation {
  id: string;
  type: 'im' | 'channel' | 'group' | 'mpim';
  name?: string;
  /** For an `im`: the person the app talks to. */
  user?: string;
}

/** A file object as a message event carries it (https://api.slack.com/types/file; the fields the fake fills). */
export interface SlackFile {
  id: string;
  name: string;
  title: string;
  mimetype: string;
  filetype: string;
  size: number;
  url_private: string;
  url_private_download: string;
}

/** A message event's `event` object as Slack sends it (the fields the fake fills). */
export interface SlackMessageEvent {
  type: 'message' | 'app_mention';
  subtype?: string;
  channel: string;
  channel_type?: SlackConversation['type'];
  user?: string;
  bot_id?: string;
  text: string;
  ts: string;
  event_ts: string;
  thread_ts?: string;
  team?: string;
  client_msg_id?: string;
  files?: SlackFile[];
  upload?: boolean;
}

/** The `payload` of an `events_api` envelope, and the body of an Events API request. */
export interface SlackEventCallback {
  token: string;
  team_id: string;
  api_app_id: string;
  event: SlackMessageEvent;
  type: 'event_callback';
  event_id: string;
  event_time: number;
  authorizations: { team_id: string; user_id: string; is_bot: boolean; is_enterprise_install: boolean }[];
  is_ext_shared_channel: boolean;
  event_context: string;
}

/** One Socket Mode envelope as sent on the WebSocket. */
export interface SlackEnvelope {
  envelope_id: string;
  type: 'events_api';
  accepts_response_payload: boolean;
  retry_attempt: number;
  retry_reason: string;
  payload: SlackEventCallback;
}

/** A message the app's bot posted, with every text it had (the first as posted, then each `chat.update`). */
export interface PostedMessage {
  channel: string;
  ts: string;
  threadTs?: string;
  text: string;
  versions: string[];
  mrkdwn: boolean;
}

/** A Web API call as the fake received it. */
export interface RecordedCall {
  method: string;
  params: Record<string, unknown>;
  /** The token it came with (Authorization header or `token` parameter). */
  token?: string;
  status: number;
  error?: string;
}
