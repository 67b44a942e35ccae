import { definePlugin } from '../../plugin-sdk';
import { OpenAiChannel } from './openai-channel';
import { openAiRoute } from './openai-route';

/**
 * The bundled OpenAI-compatible endpoint (docs/openai-endpoint.md): it registers the `openai` channel (its callers are
 * the keys of `gateway.http.endpoints.chatCompletions`, each turn run for the agent the request names, deliveries kept
 * in the transcript) and one route over `/v1` and everything below it, the address it always had, behind a key gate
 * over those keys. `gateway.http.endpoints.chatCompletions` stays where OpenClaw users know it (validated, normalized
 * and documented by the core, handed to the channel as `{ endpoint }`); the channel always runs, and the route answers
 * 404 while the endpoint's `enabled` is not true.
 */
export default definePlugin({
  register(api) {
    const channel = new OpenAiChannel();
    api.registerChannel(channel);
    const gate = api.createKeyGate({ settings: () => channel.keys() });
    api.registerHttpRoute(openAiRoute(channel, gate));
  },
});
