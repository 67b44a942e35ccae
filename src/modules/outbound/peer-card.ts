import { SpanKind } from '@opentelemetry/api';
import { CLAWGATE, SEMCONV } from '../../common/telemetry/span-attributes';
import { Tracing } from '../../common/telemetry/tracing';
import { GuardedTransport } from './guarded-transport';
import { serverOf } from './peer-call-span';
import type { PeerEndpoint } from './peer-rpc';

/** What a peer's card said is kept this long; a card that could not be read is asked for again sooner. */
const CARD_TTL_MS = 5 * 60_000;
const UNREADABLE_TTL_MS = 60_000;
const CARD_TIMEOUT_MS = 5_000;
const CARD_PATH = '/.well-known/agent-card.json';

/**
 * Whether a peer streams, as its public Agent Card says (`capabilities.streaming`), read from the well-known path at
 * the origin of the peer's configured URL through the guarded transport and kept for a few minutes. A card that
 * cannot be read counts as "does not stream": the client then sends and polls, which every peer understands.
 */
export class PeerCards {
  private readonly known = new Map<string, { streams: boolean; until: number }>();

  constructor(
    private readonly transport: GuardedTransport,
    private readonly tracing: Tracing = new Tracing(),
  ) {}

  async streams(peer: PeerEndpoint): Promise<boolean> {
    const key = `${peer.name} ${peer.url}`;
    const cached = this.known.get(key);
    if (cached && cached.until > Date.now()) return cached.streams;
    const streams = await this.tracing.inSpan(
      'a2a GetAgentCard',
      {
        kind: SpanKind.CLIENT,
        attributes: { [CLAWGATE.peer]: peer.name, [SEMCONV.httpMethod]: 'GET', [SEMCONV.urlPath]: CARD_PATH, ...serverOf(peer.url) },
      },
      async (span) => {
        const read = await this.read(peer);
        span.setAttribute(CLAWGATE.peerStreams, read === undefined ? 'unreadable' : String(read));
        return read;
      },
    );
    this.known.set(key, { streams: streams ?? false, until: Date.now() + (streams === undefined ? UNREADABLE_TTL_MS : CARD_TTL_MS) });
    return streams ?? false;
  }

  private async read(peer: PeerEndpoint): Promise<boolean | undefined> {
    let origin: string;
    try {
      origin = new URL(peer.url).origin;
    } catch {
      return undefined;
    }
    try {
      const res = await this.transport.request({
        kind: 'a2a-card',
        destination: { url: `${origin}${CARD_PATH}`, setting: `channels.a2a.peers.${peer.name}.url` },
        method: 'GET',
        headers: { Accept: 'application/json', 'User-Agent': 'clawgate-a2a' },
        timeoutMs: CARD_TIMEOUT_MS,
      });
      if (res.status !== 200) return undefined;
      const card = JSON.parse(res.body.toString('utf8')) as { capabilities?: { streaming?: unknown } };
      return card?.capabilities?.streaming === true;
    } catch {
      return undefined;
    }
  }
}
