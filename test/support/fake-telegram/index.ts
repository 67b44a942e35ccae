export { FakeTelegramServer } from './fake-telegram-server';
export { FakeBot } from './fake-bot';
export type { BotMessage, RecordedCall, TgChat, TgMessage, TgUpdate, TgUser } from './telegram-types';
export type { BotUpload } from './telegram-uploads';
