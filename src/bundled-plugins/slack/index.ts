import { definePlugin } from '../../plugin-sdk';
import { slackChannel } from './slack-channel';

/**
 * The bundled Slack plugin: it registers the `slack` channel (docs/channels/slack.md) and, for accounts in HTTP
 * mode, the Events API request URL `POST /plugins/slack/events/<accountId>` (public: each request's signature is
 * checked with the account's signing secret).
 */
export default definePlugin({
  register(api) {
    const channel = slackChannel();
    api.registerChannel(channel);
    api.registerHttpRoute({
      method: 'POST',
      path: '/events/:accountId',
      auth: 'public',
      handle: (request) => channel.handleEvents(request.params.accountId, request),
    });
  },
});
