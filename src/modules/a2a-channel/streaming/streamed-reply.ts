import { randomUUID } from 'node:crypto';
import type { ReplyDelta } from '../../runtime';
import type { ArtifactChunk } from '../model/task-events';
import type { TaskTransition } from '../model/task';

/**
 * The reply of a task whose run streams (a SendStreamingMessage, or a task that does not block its caller and may be
 * subscribed to), written as artifact chunks while the run produces it (docs/a2a-streaming.md). One chunk write is
 * in flight at a time; deltas that arrive meanwhile are joined into the next chunk, so a fast model costs one write
 * per commit, not one per token. The first chunk replaces (append: false), the rest append; a new tool round's text
 * replaces what the previous round said. The run's outcome then closes the artifact with the rest of the reply and
 * `lastChunk` (finish).
 *
 * Text the model did not stream (`unstreamed`: a provider that does not stream) starts no chunk: until the model has
 * streamed something, the reply is recorded whole by the task's final transition, one artifact event, as for a task
 * nobody streams.
 */
export class StreamedReply {
  private readonly artifactId = randomUUID();
  private round = -1;
  /** Text of the current round queued or written. */
  private roundText = '';
  private pending = '';
  private replace = false;
  /** A chunk was written. */
  private started = false;
  /** The model streamed some of the reply: from then on all of it goes out as chunks. */
  private streaming = false;
  private stopped = false;
  private opened = false;
  private writing?: Promise<void>;

  /** `write` records a chunk; false once the task is over. */
  constructor(private readonly write: (chunk: ArtifactChunk) => Promise<boolean>) {}

  /** Chunks are written from now on (the task's row exists); what arrived before goes in the first one. */
  open(): void {
    this.opened = true;
    if (this.pending && this.streaming) this.writing ??= this.drain();
  }

  readonly delta = (delta: ReplyDelta): void => {
    if (this.stopped || !delta.text) return;
    if (delta.round !== this.round) {
      this.round = delta.round;
      this.roundText = '';
      this.pending = '';
      this.replace = true;
    }
    this.roundText += delta.text;
    this.pending += delta.text;
    if (!delta.unstreamed) this.streaming = true;
    if (this.opened && this.streaming) this.writing ??= this.drain();
  };

  /**
   * The outcome to record once the run is over: a completed reply that went out as chunks is closed as chunks (what
   * was not sent yet, with `lastChunk`), so the transition carries no artifact of its own; a reply no chunk was
   * written for stays in the outcome (recorded whole); any other outcome stops the chunks as they are.
   */
  async finish(outcome: TaskTransition): Promise<TaskTransition> {
    await this.writing;
    const reply = outcome.artifact?.text;
    const closes = reply !== undefined && this.started && !this.stopped;
    this.stopped = true;
    if (!closes) return outcome;
    // What of the current round is already written: none of it when its first chunk is still to come.
    const sent = this.replace ? undefined : this.roundText.slice(0, this.roundText.length - this.pending.length);
    const continues = sent !== undefined && reply.startsWith(sent);
    await this.write({
      artifactId: this.artifactId,
      text: continues ? reply.slice(sent.length) : reply,
      append: continues,
      lastChunk: true,
    }).catch(() => false);
    const { artifact: _sent, ...rest } = outcome;
    return rest;
  }

  private async drain(): Promise<void> {
    try {
      while (!this.stopped && this.pending) {
        const chunk: ArtifactChunk = {
          artifactId: this.artifactId,
          text: this.pending,
          append: this.started && !this.replace,
          lastChunk: false,
        };
        this.pending = '';
        this.replace = false;
        this.started = true;
        if (!(await this.write(chunk))) this.stopped = true;
      }
    } catch {
      // The task could not be stored or is gone: its outcome is recorded (or refused) by the settle, not here.
      this.stopped = true;
    } finally {
      this.writing = undefined;
    }
  }
}
