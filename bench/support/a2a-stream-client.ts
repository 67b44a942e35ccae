import { performance } from 'node:perf_hooks';
import { createParser } from 'eventsource-parser';
import type { Pool } from 'undici';

/**
 * One JSON-RPC SendStreamingMessage read to its end as Server-Sent Events, timed and checked: the first event is
 * the task, then artifact chunks (the first replaces, the rest append, only the last has lastChunk, one artifact) and
 * non-terminal status updates, and the last event is COMPLETED; the chunks concatenate to the expected reply; every
 * event is a JSON-RPC response with the call's id. Anything else makes the stream a bad answer, so a fast wrong
 * stream cannot win.
 */

export interface StreamCall {
  pool: Pool;
  pathname: string;
  token: string;
  /** JSON-RPC id, also the message id's suffix. */
  id: string;
  text: string;
  expectedReply: string;
  /** Called as each event arrives, with the reply words it carries (0 for the task and status updates). */
  onEvent(words: number): void;
}

export interface StreamOutcome {
  /** Why the stream is a bad answer; undefined when it is right. */
  problem?: string;
  /** ms from sending the request to the first event (the task). */
  firstEventMs: number;
  /** ms from sending the request to the first artifact chunk. */
  firstArtifactMs: number;
  /** ms from sending the request to the end of the stream. */
  totalMs: number;
  events: number;
  chunks: number;
}

type Json = Record<string, any>;

/** The states after which a stream ends. */
const TERMINAL = new Set(['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED']);

export async function streamMessage(call: StreamCall): Promise<StreamOutcome> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: call.id,
    method: 'SendStreamingMessage',
    params: { message: { messageId: `m-${call.id}`, role: 'ROLE_USER', parts: [{ text: call.text }] } },
  });
  const started = performance.now();
  const outcome: StreamOutcome = { firstEventMs: NaN, firstArtifactMs: NaN, totalMs: NaN, events: 0, chunks: 0 };
  const check = new StreamCheck(call.id, call.expectedReply);
  const parser = createParser({
    onEvent: (event) => {
      const at = performance.now() - started;
      if (outcome.events++ === 0) outcome.firstEventMs = at;
      const words = check.event(event.data);
      if (words !== undefined && outcome.chunks++ === 0) outcome.firstArtifactMs = at;
      call.onEvent(words ?? 0);
    },
  });
  const res = await call.pool.request({
    path: call.pathname,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      'a2a-version': '1.0',
      authorization: `Bearer ${call.token}`,
    },
    body,
  });
  const type = String(res.headers['content-type'] ?? '');
  if (res.statusCode !== 200 || !type.startsWith('text/event-stream')) {
    const text = await res.body.text();
    return { ...outcome, problem: `HTTP ${res.statusCode} ${type}: ${text.slice(0, 300)}` };
  }
  const decoder = new TextDecoder();
  for await (const chunk of res.body) parser.feed(decoder.decode(chunk as Buffer, { stream: true }));
  outcome.totalMs = performance.now() - started;
  return { ...outcome, problem: check.problem ?? check.atEnd() };
}

/** The rules above, event by event; the first broken one is kept. */
class StreamCheck {
  problem?: string;
  private taskId?: string;
  private artifactId?: string;
  private reply = '';
  private lastChunkSeen = false;
  private finalState?: string;

  constructor(
    private readonly rpcId: string,
    private readonly expectedReply: string,
  ) {}

  /** Checks one event's data; for an artifact chunk, returns the reply words it carries. */
  event(data: string): number | undefined {
    const response = JSON.parse(data) as Json;
    const result = response.result as Json | undefined;
    if (response.id !== this.rpcId || !result) return this.fail(`not a result for ${this.rpcId}: ${data.slice(0, 300)}`);
    if (this.finalState) return this.fail(`an event after ${this.finalState}`);
    if (this.taskId === undefined) {
      if (!result.task?.id) return this.fail(`the first event is not the task: ${data.slice(0, 300)}`);
      this.taskId = result.task.id as string;
      return undefined;
    }
    if (result.statusUpdate) {
      const state = result.statusUpdate.status?.state as string;
      if (result.statusUpdate.taskId !== this.taskId) return this.fail('a status update of another task');
      if (TERMINAL.has(state)) this.finalState = state;
      return undefined;
    }
    const update = result.artifactUpdate as Json | undefined;
    if (!update) return this.fail(`neither a status update nor an artifact chunk: ${data.slice(0, 300)}`);
    if (update.taskId !== this.taskId) return this.fail('an artifact chunk of another task');
    const first = this.artifactId === undefined;
    this.artifactId ??= update.artifact?.artifactId as string;
    if (update.artifact?.artifactId !== this.artifactId) return this.fail('chunks of two artifacts');
    if (Boolean(update.append) === first) return this.fail(`append ${Boolean(update.append)} on ${first ? 'the first' : 'a later'} chunk`);
    if (this.lastChunkSeen) return this.fail('a chunk after lastChunk');
    this.lastChunkSeen = Boolean(update.lastChunk);
    const text = ((update.artifact.parts ?? []) as Json[]).map((p) => (p.text as string) ?? '').join('');
    this.reply += text;
    return text.match(/\S+/g)?.length ?? 0;
  }

  atEnd(): string | undefined {
    if (this.finalState !== 'TASK_STATE_COMPLETED') return `the stream ended ${this.finalState ?? 'without a final state'}`;
    if (!this.lastChunkSeen) return 'no chunk with lastChunk';
    if (this.reply !== this.expectedReply) return `the chunks make ${JSON.stringify(this.reply.slice(0, 120))}`;
    return undefined;
  }

  private fail(problem: string): undefined {
    this.problem ??= problem;
    return undefined;
  }
}
