import type { A2aWireVersion } from '../../../common/a2a-protocol';

/** How a SendMessage is answered: `wait` (blocking unless the message says otherwise), or `stream` (its events). */
export interface AcceptOptions {
  wait: boolean;
  /** The A2A version of the call: a push config it registers is delivered in it. */
  wire?: A2aWireVersion;
  /**
   * The caller streams the task's events (the row is written at once). Like the task of any caller that does not wait,
   * its reply is recorded chunk by chunk as the model streams it.
   */
  stream?: boolean;
}
