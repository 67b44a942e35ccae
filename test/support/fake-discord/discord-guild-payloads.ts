import type { DChannel } from './discord-types';
import { type FakeDiscordBot, type FakeDiscordWorld, snowflake } from './fake-discord-world';

/** The guilds the bot is in, as GUILD_CREATE carries them after READY: roles, the bot as member, channels, threads. */
export function guildPayloads(world: FakeDiscordWorld, bot: FakeDiscordBot): Record<string, unknown>[] {
  return [...world.guilds.values()]
    .filter((g) => g.members.has(bot.user.id))
    .map(({ guild }) => {
      const channels = world.guildChannels(guild.id);
      return {
        ...guild,
        unavailable: false,
        member_count: 2,
        large: false,
        joined_at: new Date().toISOString(),
        roles: [
          {
            id: guild.id,
            name: '@everyone',
            permissions: '1024',
            position: 0,
            color: 0,
            hoist: false,
            managed: false,
            mentionable: false,
          },
        ],
        emojis: [],
        features: [],
        members: [{ user: bot.user, roles: [], joined_at: new Date().toISOString(), deaf: false, mute: false }],
        channels: channels
          .filter((c) => c.type === 0)
          .map((c) => ({ id: c.id, type: c.type, name: c.name, position: 0, permission_overwrites: [] })),
        threads: channels.filter((c) => c.type === 11).map(threadPayload),
        voice_states: [],
        presences: [],
        stage_instances: [],
        guild_scheduled_events: [],
      };
    });
}

/** A thread channel object with its `thread_metadata`, as THREAD_CREATE and GUILD_CREATE's `threads` carry it. */
export function threadPayload(thread: DChannel): Record<string, unknown> {
  return {
    id: thread.id,
    type: thread.type,
    guild_id: thread.guild_id,
    parent_id: thread.parent_id,
    name: thread.name,
    owner_id: snowflake(),
    message_count: 0,
    member_count: 1,
    thread_metadata: { archived: false, auto_archive_duration: 1440, archive_timestamp: new Date().toISOString(), locked: false },
  };
}
