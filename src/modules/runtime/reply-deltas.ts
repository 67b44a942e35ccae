/**
 * A piece of a run's reply as the model writes it (docs/runtime.md#streamed-replies). `round` is the tool round
 * the text belongs to: 0 for the first model call, 1 for the call after the first tool results, and so on. The
 * run's final reply is the concatenation of the `text` of every delta of its last round; text of earlier rounds
 * is what the model said before calling tools.
 */
export interface ReplyDelta {
  round: number;
  text: string;
  /**
   * Set when the model did not stream this text: it came only with the model's answer (all of it from a provider
   * that does not stream, or the part a stream left out). A listener that writes each piece somewhere (an A2A
   * task's artifact chunks) can then record the answer once instead of as a piece.
   */
  unstreamed?: true;
}

export type ReplyDeltaListener = (delta: ReplyDelta) => void;

/**
 * The deltas of one model call. The provider reports the text it streams through `push`; `finish` then reports
 * whatever the provider did not stream (all of the text of a provider that does not stream, or of one whose
 * settings say `stream: false`), so the deltas of a round always add up to the text of its answer. A listener
 * that throws is logged and never breaks the run.
 */
export class RoundDeltas {
  private sent = '';

  /** True once some text has gone to the listener: it cannot be taken back (no other model may answer this round). */
  get started(): boolean {
    return this.sent.length > 0;
  }

  constructor(
    private readonly listener: ReplyDeltaListener,
    private readonly round: number,
    private readonly onListenerError: (err: Error) => void,
  ) {}

  readonly push = (text: string): void => {
    if (!text) return;
    this.sent += text;
    this.emit(text);
  };

  /** The answer's full text, once the model call is over. */
  finish(full: string): void {
    if (full === this.sent) return;
    if (full.startsWith(this.sent)) this.emit(full.slice(this.sent.length), true);
    // A provider whose deltas are not a prefix of its own answer breaks the port's contract: say so.
    else this.onListenerError(new Error(`round ${this.round}: the streamed text differs from the answer's text`));
  }

  private emit(text: string, unstreamed = false): void {
    try {
      this.listener(unstreamed ? { round: this.round, text, unstreamed: true } : { round: this.round, text });
    } catch (err) {
      this.onListenerError(err as Error);
    }
  }
}
