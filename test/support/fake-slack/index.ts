export { FakeSlackServer, slackSignature, type FakeSlackOptions } from './fake-slack-server';
export { FakeSlackApp } from './fake-slack-app';
export type {
  PostedMessage,
  RecordedCall,
  SlackConversation,
  SlackEnvelope,
  SlackEventCallback,
  SlackMessageEvent,
  SlackUser,
} from './slack-types';
