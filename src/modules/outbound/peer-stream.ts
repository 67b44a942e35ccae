import { randomUUID } from 'node:crypto';
import { createParser } from 'eventsource-parser';
import { isRecord } from '../../common/is-record';
import { A2aOutboundError } from './a2a-outbound-error';
import { isSettled, partsText, PeerProtocolError, PeerTaskView, readSendResult, readState, readTask } from './a2a-wire';
import { GuardedTransport } from './guarded-transport';
import { OutboundError } from './outbound-error';
import type { PeerDialect } from './peer-dialect';
import { fromTransport, PeerEndpoint, peerHeaders, peerView, readRpcAnswer } from './peer-rpc';

/** What a streamed send came to: the task as its events left it, and whether it settled before the stream stopped. */
export interface StreamedSend {
  view: PeerTaskView;
  settled: boolean;
}

/**
 * SendStreamingMessage (0.3: `message/stream`) to a peer whose card says it streams (docs/outbound.md#streaming):
 * the task and its events are read as they arrive (SSE, each event a JSON-RPC response holding a StreamResponse, 1.0
 * or 0.3 shapes) until the task settles. The call is bounded like every outbound call (30 s); a task still running
 * then is reported unsettled, and the caller polls it from there. Errors before any task existed throw, as callPeer.
 */
export async function streamFromPeer(
  transport: GuardedTransport,
  peer: PeerEndpoint,
  dialect: PeerDialect,
  text: string,
  messageId: string,
  signal?: AbortSignal,
  metadata?: Record<string, unknown>,
): Promise<StreamedSend> {
  const id = randomUUID();
  const tracker = new StreamTracker(peer, dialect.streamMethod, id);
  const parser = createParser({ onEvent: (event) => tracker.event(event.data) });
  const decoder = new TextDecoder();
  let status: number;
  let contentType: string;
  let body: string;
  try {
    const res = await transport.request({
      kind: 'a2a',
      destination: { url: peer.url, setting: `channels.a2a.peers.${peer.name}.url` },
      method: 'POST',
      headers: peerHeaders(peer, dialect.headers, 'text/event-stream'),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: dialect.streamMethod,
        params: dialect.streamParams(peer.name, text, messageId, metadata),
      }),
      signal,
      onBodyChunk: (chunk) => {
        parser.feed(decoder.decode(chunk, { stream: true }));
        return !tracker.settled;
      },
    });
    status = res.status;
    contentType = String(res.headers['content-type'] ?? '');
    body = res.body.toString('utf8');
  } catch (err) {
    // Cut (the 30 s bound, a dropped connection, the run's abort) with a task under way: the caller goes on with it
    // as with a polled task — polling it, or canceling it at the peer when the run was aborted.
    if (err instanceof OutboundError && tracker.view) return { view: tracker.view, settled: false };
    throw fromTransport(peer, err);
  }
  tracker.rethrow();
  if (!contentType.startsWith('text/event-stream')) {
    // An answer that is not a stream: an error (or a peer that answered the stream call with one result).
    const result = readRpcAnswer(peer, dialect.streamMethod, id, status, body);
    const view = peerView(peer, () => readSendResult(result));
    return { view, settled: isSettled(view.state) };
  }
  if (!tracker.view) throw new A2aOutboundError('protocol', `peer ${peer.name}: the stream ended before it named a task`);
  return { view: tracker.view, settled: tracker.settled };
}

/** The task as a stream's events build it: the first task, then status and artifact updates (append or replace). */
class StreamTracker {
  view?: PeerTaskView;
  private readonly artifacts = new Map<string, string>();
  private failure?: A2aOutboundError;

  constructor(
    private readonly peer: PeerEndpoint,
    private readonly method: string,
    private readonly id: string,
  ) {}

  get settled(): boolean {
    return this.failure !== undefined || (this.view !== undefined && isSettled(this.view.state));
  }

  rethrow(): void {
    if (this.failure) throw this.failure;
  }

  event(data: string): void {
    if (this.settled) return;
    try {
      const result = readRpcAnswer(this.peer, this.method, this.id, 200, data);
      this.apply(result);
    } catch (err) {
      this.failure =
        err instanceof A2aOutboundError ? err : new A2aOutboundError('protocol', `peer ${this.peer.name}: ${(err as Error).message}`);
    }
  }

  private apply(result: unknown): void {
    if (!isRecord(result)) throw new PeerProtocolError('a stream event is not an object');
    const status = (result.statusUpdate ?? (result.kind === 'status-update' ? result : undefined)) as Record<string, unknown> | undefined;
    const artifact = (result.artifactUpdate ?? (result.kind === 'artifact-update' ? result : undefined)) as
      Record<string, unknown> | undefined;
    if (status) return this.onStatus(status);
    if (artifact) return this.onArtifact(artifact);
    const view = result.task !== undefined ? readTask(result.task) : readSendResult(result);
    this.artifacts.clear();
    if (view.artifactText) this.artifacts.set('', view.artifactText);
    this.view = view;
  }

  private onStatus(update: Record<string, unknown>): void {
    const view = this.current();
    const status = isRecord(update.status) ? update.status : {};
    const statusText = isRecord(status.message) ? partsText(status.message.parts) : undefined;
    this.view = { ...view, state: readState(status.state), ...(statusText ? { statusText } : {}) };
  }

  private onArtifact(update: Record<string, unknown>): void {
    const view = this.current();
    const artifact = isRecord(update.artifact) ? update.artifact : {};
    const key = typeof artifact.artifactId === 'string' ? artifact.artifactId : '';
    const piece = partsText(artifact.parts) ?? '';
    this.artifacts.set(key, update.append === true ? `${this.artifacts.get(key) ?? ''}${piece}` : piece);
    const artifactText = [...this.artifacts.values()].filter(Boolean).join('\n');
    this.view = { ...view, ...(artifactText ? { artifactText } : {}) };
  }

  private current(): PeerTaskView {
    if (!this.view) throw new PeerProtocolError('a stream event came before the task');
    return this.view;
  }
}
