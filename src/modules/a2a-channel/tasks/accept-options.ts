import type { A2aWireVersion } from '../../../common/a2a-protocol';
import type { A2aTask } from '../model/task';

/** How a SendMessage is answered: `wait` (blocking unless the message says otherwise), or `stream` (its events). */
export interface AcceptOptions {
  wait: boolean;
  /** The A2A version of the call: a push config it registers is delivered in it. */
  wire?: A2aWireVersion;
  /** The caller streams the task's events: the row is written at once and the reply is recorded chunk by chunk. */
  stream?: boolean;
}

/** An accepted message's task, and how much of its history the caller asked to see. */
export interface Accepted {
  task: A2aTask;
  historyLength?: number;
}
