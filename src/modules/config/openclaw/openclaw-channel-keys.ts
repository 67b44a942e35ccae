import {
  chatChannels,
  implemented,
  implementedEach,
  OpenClawKey,
  partlyProvidedChatChannel,
  refused,
  unsupported,
  unsupportedNames,
} from './openclaw-key-tree';

/** OpenClaw's `channels` section (openclaw-keys.ts): the chat channels, and what the bundled plugins of some of them lack. */

/** The chat channels OpenClaw documents (bundled, and the external ones of its catalog). */
const CHAT_CHANNELS = {
  ...chatChannels(`
  bluebubbles buzz clickclack discord feishu googlechat imessage irc line matrix mattermost msteams nextcloud-talk nostr
  openclaw-weixin qqbot raft reef signal slack sms synology-chat telegram tlon twitch wecom whatsapp yuanbao zalo zalouser`),
  // OpenClaw's Telegram keys the bundled Telegram plugin (src/bundled-plugins/telegram) does not implement.
  telegram: partlyProvidedChatChannel(`
    ackReaction actions blockStreaming blockStreamingCoalesce capabilities chunkMode commands configWrites customCommands
    defaultAccount dmHistoryLimit dms draftChunk execApprovals heartbeat historyLimit linkPreview markdown name
    network proxy reactionLevel reactionNotifications replyToMode responsePrefix retry richMessages streamMode streaming
    textChunkLimit timeoutSeconds tokenFile webhookHost`),
  // OpenClaw's Discord keys the bundled Discord plugin (src/bundled-plugins/discord) does not implement.
  discord: partlyProvidedChatChannel(
    `
    actions activity activityType activityUrl agentComponents applicationId autoPresence blockStreaming
    blockStreamingCoalesce capabilities chunkMode commands configWrites contextVisibility defaultAccount dm dmHistoryLimit
    dms draftChunk eventQueue execApprovals heartbeat historyLimit inboundWorker intents markdown maxLinesPerMessage
    mentionPatterns name pluralkit proxy reactionNotifications replyToMode responsePrefix retry status streaming
    textChunkLimit threadBindings tokenFile ui voice`,
    {
      guilds: implementedEach(
        'map',
        implemented({
          ...unsupportedNames('slug ignoreOtherMentions reactionNotifications tools toolsBySender autoThread includeThreadStarter'),
          roles: refused("a guild's role allowlist; ignoring it would let every member reach the agent (use the guild's users)"),
          channels: implementedEach(
            'map',
            implemented({
              ...unsupportedNames('skills systemPrompt tools toolsBySender autoThread includeThreadStarter ignoreOtherMentions'),
              roles: refused("a channel's role allowlist; ignoring it would let every member reach the agent (use the channel's users)"),
            }),
          ),
        }),
      ),
    },
  ),
  // OpenClaw's Slack keys the bundled Slack plugin (src/bundled-plugins/slack) does not implement.
  slack: partlyProvidedChatChannel(
    `
    ackReaction actions blockStreaming blockStreamingCoalesce capabilities chunkMode commands configWrites defaultAccount dm
    dmHistoryLimit heartbeat historyLimit markdown name nativeStreaming reactionAllowlist reactionNotifications
    relay replyToMode replyToModeByChatType responsePrefix slashCommand streamMode streaming textChunkLimit userToken
    userTokenReadOnly webhookPath`,
    {
      // Slack's allowed channels (the gateway's `groups`): their mention and enabled settings are implemented.
      channels: implementedEach(
        'map',
        implemented({
          allowBots: unsupported(),
          skills: unsupported(),
          systemPrompt: unsupported(),
          tools: unsupported(),
          toolsBySender: unsupported(),
          users: refused(
            "a per-channel user allowlist; ignoring it would let every member of the channel reach the agent (clawgate's: the section's groupAllowFrom)",
          ),
        }),
      ),
    },
  ),
};

// A chat channel is a plugin's (its manifest's channelConfigs); one no plugin provides loads with a warning.
// clawgate's own (a2a, http) are the schema's.
export const CHANNELS_KEYS: OpenClawKey = implemented(
  { ...CHAT_CHANNELS, ...unsupportedNames('defaults modelByChannel') },
  { pluginChannels: true },
);
