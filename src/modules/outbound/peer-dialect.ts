import { A2A_LEGACY_METHODS, A2A_METHODS, A2A_PROTOCOL_VERSION, type A2aWireVersion } from '../../common/a2a-protocol';
import { outboundContextId, sendMessageParams } from './a2a-wire';

/**
 * How the client speaks one A2A version to a peer: method names, the headers that name the version, and the
 * SendMessage params. Answers are read in both versions' shapes whichever is spoken (a2a-wire.ts), since a
 * peer's answer is what it is. docs/outbound.md#2-the-wire-exchange.
 */
export interface PeerDialect {
  readonly version: A2aWireVersion;
  readonly sendMethod: string;
  /** The same message with its events streamed back (SSE), for peers whose card says they stream. */
  readonly streamMethod: string;
  readonly getMethod: string;
  readonly cancelMethod: string;
  readonly headers: Readonly<Record<string, string>>;
  sendParams(peer: string, text: string, messageId: string, metadata?: Record<string, unknown>): Record<string, unknown>;
  /** The streaming call's params: the message alone (a stream has no return-immediately to ask for). */
  streamParams(peer: string, text: string, messageId: string, metadata?: Record<string, unknown>): Record<string, unknown>;
}

function withoutConfiguration(params: Record<string, unknown>): Record<string, unknown> {
  const { configuration: _sendOnly, ...rest } = params;
  return rest;
}

/** SendMessage params in A2A 0.3 form: kind-tagged message and part, role `user`, `blocking: false`. */
export function v03SendMessageParams(
  peer: string,
  text: string,
  messageId: string,
  metadata?: Record<string, unknown>,
): Record<string, unknown> {
  return {
    message: {
      kind: 'message',
      messageId,
      role: 'user',
      contextId: outboundContextId(peer),
      parts: [{ kind: 'text', text }],
      ...(metadata ? { metadata } : {}),
    },
    configuration: { blocking: false },
  };
}

const DIALECTS: Readonly<Record<A2aWireVersion, PeerDialect>> = Object.freeze({
  '1.0': {
    version: '1.0',
    sendMethod: A2A_METHODS.sendMessage,
    streamMethod: A2A_METHODS.sendStreamingMessage,
    getMethod: A2A_METHODS.getTask,
    cancelMethod: A2A_METHODS.cancelTask,
    // 1.0 clients must name their version on every request.
    headers: { 'A2A-Version': A2A_PROTOCOL_VERSION },
    sendParams: sendMessageParams,
    streamParams: (peer, text, messageId, metadata) => withoutConfiguration(sendMessageParams(peer, text, messageId, metadata)),
  },
  '0.3': {
    version: '0.3',
    sendMethod: A2A_LEGACY_METHODS.sendMessage,
    streamMethod: A2A_LEGACY_METHODS.sendStreamingMessage,
    getMethod: A2A_LEGACY_METHODS.getTask,
    cancelMethod: A2A_LEGACY_METHODS.cancelTask,
    // As a 0.3 client: no A2A-Version (0.3 has none, and a 1.0 server reads its absence as 0.3).
    headers: {},
    sendParams: v03SendMessageParams,
    streamParams: (peer, text, messageId, metadata) => withoutConfiguration(v03SendMessageParams(peer, text, messageId, metadata)),
  },
});

export function peerDialect(version: A2aWireVersion): PeerDialect {
  return DIALECTS[version];
}
