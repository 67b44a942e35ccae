export { FakeDiscordServer } from './fake-discord-server';
export { FakeDiscordBot } from './fake-discord-world';
export type { BotMessage, DChannel, DGuild, DMessage, DUser, RecordedCall } from './discord-types';
