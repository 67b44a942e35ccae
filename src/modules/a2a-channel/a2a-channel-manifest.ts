import type { ChannelSetupField } from '../config';

/**
 * The A2A channel described as a channel plugin's manifest describes its channel (OpenClaw ships it as the plugin
 * `@openclaw/a2a`: channel id `a2a`, category `agent-orchestration`): what `clawgate channels list` shows of it and the
 * setup fields `clawgate channels add a2a` takes. A field whose key ends in `.*` names the map entry the other fields'
 * `*` stand for (`--peer-name hermes` makes `peers.*.token` write `peers.hermes.token`).
 */
export const A2A_CHANNEL_MANIFEST: {
  id: 'a2a';
  name: string;
  category: string;
  setup: readonly ChannelSetupField[];
} = {
  id: 'a2a',
  name: 'A2A',
  category: 'agent-orchestration',
  setup: [
    { flag: 'advertised-url', key: 'advertisedUrl', description: 'the public origin the Agent Card names' },
    { flag: 'peer-name', key: 'peers.*', description: 'the name of a peer allowed to call (its key under peers)' },
    { flag: 'peer-token', key: 'peers.*.token', description: 'the bearer token that peer presents', sensitive: true },
  ],
};
