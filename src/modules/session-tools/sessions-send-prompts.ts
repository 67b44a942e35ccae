/**
 * The agent-to-agent texts of the sessions_send flow, all in one place with their stop tokens.
 * Kept short: they are added to the system prompt of every agent-to-agent step.
 * See docs/sessions.md#prompts-and-stop-tokens.
 */

/** A reply of exactly this (trimmed) ends the ping-pong. */
export const REPLY_SKIP = 'REPLY_SKIP';
/** An announce answer of exactly this (trimmed) posts nothing. */
export const ANNOUNCE_SKIP = 'ANNOUNCE_SKIP';

/** Round one, in the target session. */
export function roundOnePrompt(requesterSessionKey: string, targetSessionKey: string): string {
  const requesterAgent = requesterSessionKey.split(':')[1];
  return [
    `Agent-to-agent message: this message comes from agent "${requesterAgent}" (session ${requesterSessionKey}) via sessions_send, not from a human.`,
    `You are answering in session ${targetSessionKey}. Your reply goes back to that agent and is not shown to users.`,
  ].join('\n');
}

/** One ping-pong step. `role` is who speaks in this step. */
export function replyStepPrompt(turn: number, maxTurns: number, role: 'requester' | 'target', agentId: string): string {
  return [
    `Agent-to-agent conversation, turn ${turn} of ${maxTurns}. You are the ${role} ${agentId}.`,
    "The incoming message is the other agent's latest reply. Continue only if it moves the task forward;",
    `reply exactly ${REPLY_SKIP} to end the conversation.`,
  ].join(' ');
}

/** The closing step in the target session: what, if anything, to post to its channel. */
export function announcePrompt(originalRequest: string, firstReply: string, latestReply: string): string {
  return [
    'The agent-to-agent exchange is over.',
    `Original request:\n"""\n${originalRequest}\n"""`,
    `First reply:\n"""\n${firstReply}\n"""`,
    `Latest reply:\n"""\n${latestReply}\n"""`,
    `Write what should be posted to this session's channel, or reply exactly ${ANNOUNCE_SKIP} to post nothing.`,
  ].join('\n\n');
}

/** The message of the announce step (the prompt above carries the content). */
export const ANNOUNCE_MESSAGE = 'Agent-to-agent exchange finished: prepare the announcement for this session.';

export const CHAIN_EXCEEDED_MESSAGE = 'agent-to-agent chain exceeded session.agentToAgent.maxChainHops';

/** Why a run of the exchange (round one, a ping-pong step, the announce) is aborted when the requesting run is. */
export const REQUESTER_ABORTED = 'the run that sent this message was aborted';
