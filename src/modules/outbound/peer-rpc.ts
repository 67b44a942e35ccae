import { randomUUID } from 'node:crypto';
import type { A2aWireVersion } from '../../common/a2a-protocol';
import { A2aOutboundError } from './a2a-outbound-error';
import { PeerProtocolError, type PeerTaskView } from './a2a-wire';
import { GuardedTransport } from './guarded-transport';
import { OutboundError } from './outbound-error';
import { maskSecretValues } from '../../common/secrets/secret-mask';

/** A peer as one call sees it: resolved from the config snapshot of that moment. */
export interface PeerEndpoint {
  name: string;
  url: string;
  outboundToken?: string;
  /** The A2A version configured for the peer (`protocolVersion`). */
  protocolVersion: A2aWireVersion;
  /** Values that must never appear in an error we pass on (both of the peer's tokens). */
  secrets: string[];
}

export interface PeerCallOptions {
  /** The headers that name the A2A version spoken (PeerDialect.headers). */
  versionHeaders: Readonly<Record<string, string>>;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** How much of a peer's own error text we repeat (it is untrusted and ends up in transcripts and logs). */
const PEER_TEXT_MAX = 200;

/**
 * One JSON-RPC 2.0 call to a peer through the guarded transport. Returns `result`; everything else is an
 * A2aOutboundError: transport failures, HTTP errors (401/403 name the outboundToken setting), malformed
 * answers, and JSON-RPC errors (with `rpcCode`, the peer's message sanitized and cut).
 */
export async function callPeer(
  transport: GuardedTransport,
  peer: PeerEndpoint,
  method: string,
  params: unknown,
  options: PeerCallOptions,
): Promise<unknown> {
  const id = randomUUID();
  const headers = peerHeaders(peer, options.versionHeaders, 'application/json');
  let status: number;
  let text: string;
  try {
    const res = await transport.request({
      kind: 'a2a',
      destination: { url: peer.url, setting: `channels.a2a.peers.${peer.name}.url` },
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    });
    status = res.status;
    text = res.body.toString('utf8');
  } catch (err) {
    throw fromTransport(peer, err);
  }
  return readRpcAnswer(peer, method, id, status, text);
}

/** The headers of a call to `peer`: JSON in, `accept` out, the version's headers, and only the token meant for it. */
export function peerHeaders(peer: PeerEndpoint, versionHeaders: Readonly<Record<string, string>>, accept: string): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: accept,
    ...versionHeaders,
    'User-Agent': 'clawgate-a2a',
  };
  // Only the token meant for this peer; the inbound `token` is what the peer presents to us, never sent.
  if (peer.outboundToken) headers.Authorization = `Bearer ${peer.outboundToken}`;
  return headers;
}

/** The `result` of one JSON-RPC answer (status and body as received), or the A2aOutboundError it amounts to. */
export function readRpcAnswer(peer: PeerEndpoint, method: string, id: string, status: number, text: string): unknown {
  const fail = (reason: 'http' | 'auth' | 'protocol', message: string) => new A2aOutboundError(reason, `peer ${peer.name}: ${message}`);
  if (status === 401 || status === 403) {
    const hint = peer.outboundToken ? 'check' : 'set';
    throw fail('auth', `rejected our credentials (HTTP ${status}); ${hint} channels.a2a.peers.${peer.name}.outboundToken`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw status < 200 || status >= 300
      ? fail('http', `answered HTTP ${status}`)
      : fail('protocol', 'answered with a body that is not JSON');
  }
  const envelope = body as { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };
  if (envelope?.error && typeof envelope.error === 'object') {
    const code = typeof envelope.error.code === 'number' ? envelope.error.code : NaN;
    const message = typeof envelope.error.message === 'string' ? sanitize(envelope.error.message, peer.secrets) : '(no message)';
    throw new A2aOutboundError('rpc', `peer ${peer.name} answered ${method} with JSON-RPC error ${code}: ${message}`, code);
  }
  if (status < 200 || status >= 300) throw fail('http', `answered HTTP ${status}`);
  if (envelope?.jsonrpc !== '2.0' || envelope.id !== id || !('result' in envelope)) {
    throw fail('protocol', 'answered with something that is not a JSON-RPC 2.0 response to our request');
  }
  return envelope.result;
}

/** A peer's answer read as a task view; an answer that is not one is the peer's protocol error, named after it. */
export function peerView(peer: PeerEndpoint, read: () => PeerTaskView): PeerTaskView {
  try {
    return read();
  } catch (err) {
    if (err instanceof PeerProtocolError) throw new A2aOutboundError('protocol', `peer ${peer.name}: ${err.message}`);
    throw err;
  }
}

/** Untrusted peer text → one short line without control characters or our secrets. */
export function sanitize(text: string, secrets: string[]): string {
  const out = maskSecretValues(text, secrets)
    // eslint-disable-next-line no-control-regex -- control characters are what it strips
    .replace(/[\s\u0000-\u001f\u007f]+/g, ' ')
    .trim();
  return out.length > PEER_TEXT_MAX ? `${out.slice(0, PEER_TEXT_MAX)}…` : out;
}

export function fromTransport(peer: PeerEndpoint, err: unknown): A2aOutboundError {
  if (!(err instanceof OutboundError)) return new A2aOutboundError('unreachable', `peer ${peer.name}: request failed`);
  const reason =
    err.failure === 'timeout'
      ? 'timeout'
      : err.failure === 'aborted'
        ? 'aborted'
        : err.failure === 'refused_address' ||
            err.failure === 'redirect' ||
            err.failure === 'invalid_destination' ||
            err.failure === 'too_large'
          ? 'refused'
          : 'unreachable';
  return new A2aOutboundError(reason, `peer ${peer.name}: ${err.message}`);
}
