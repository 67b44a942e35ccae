import type { CarriedBudget } from '../../common/work-origin';
import type { Approval } from '../approvals';
import type { InterSessionProvenance, SessionCreateOptions } from '../sessions';
import type { ReplyDeltaListener } from './reply-deltas';
import type { RunLineage, RunRecord } from './run-registry';
import type { RunOrigin } from './run-log';
import type { LaneName } from './session-lanes';
import type { LaneShare } from './lane-share';

/** What starts a run (AgentRunner.startRun): the session and message, and what the run's channel adds. */
export interface StartRunInput {
  sessionKey: string;
  message: string;
  provenance?: InterSessionProvenance;
  extraSystemPrompt?: string;
  /** `nested` for agent-to-agent steps (ping-pong, announce), so they never queue behind a waiting run. */
  lane?: LaneName;
  /** Used when the session does not exist yet. */
  create?: SessionCreateOptions;
  /** Written to the transcript lines of this run (e.g. the agent-to-agent step). */
  meta?: Record<string, unknown>;
  /** Per-run tools (`AgentTool.perRun`) this run is offered, e.g. request_input for a run of an A2A task. */
  perRunTools?: readonly string[];
  /**
   * Called with the reply as the model writes it, in order (docs/runtime.md#streamed-replies): asking for it
   * makes the model call stream. `round` is the tool round; the final reply is the concatenation of the texts
   * of the last round's deltas. Never called after the run is over.
   */
  onReplyDelta?: ReplyDeltaListener;
  /** The channel message this run answers (a person's or a peer's): logged as the inbound message. */
  origin?: RunOrigin;
  /** Where the run sits in the tree of runs: the run whose tool started it, the session that spawned its session. */
  lineage?: RunLineage;
  /**
   * A limit a trusted A2A peer carried in with its task (docs/usage.md#budgets-follow-the-work): this run and every run
   * its tools start spend at most this. Ignored for a run that belongs to another run's work (its provenance names it).
   */
  carriedBudget?: CarriedBudget;
  /**
   * Goes on with the turn a run stopped in while a tool call waited for approval (a restart took that run;
   * docs/approvals.md#after-a-restart): no new user line, the decided call is answered first, then the model again.
   */
  resume?: { approval: Approval };
  /**
   * The session's lane is known only to this process until shared (a conversation id this process made up for this
   * run): in a cluster the run takes its lane lease only then (lane-share.ts). Without it the run leases as it starts.
   */
  share?: LaneShare;
}

export interface RunHandle {
  runId: string;
  /** Settles when the run is terminal; never rejects. */
  done: Promise<RunRecord>;
}
