import { definePlugin } from '../../plugin-sdk';
import { HttpChannel } from './http-channel';
import { httpMessagesRoute } from './http-route';

/**
 * The bundled http channel (docs/channels.md#the-http-channel): it registers the `http` channel (accounts with tokens,
 * deliveries to signed webhooks or kept in the transcript) and its inbound route at the address it always had,
 * `POST /channels/http/messages` (public: the route checks the account's bearer token before reading the body).
 * `channels.http` is a section of the core's config (validated, normalized and documented there); the channel runs
 * while `channels.http.enabled` is true, and the route answers 404 otherwise.
 */
export default definePlugin({
  register(api) {
    const channel = new HttpChannel();
    api.registerChannel(channel);
    api.registerHttpRoute(httpMessagesRoute(channel));
  },
});
