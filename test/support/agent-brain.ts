import type { FakeOpenAiServer } from './fake-openai-server';
import { lastUserText, type FakeReply, type RecordedRequest } from './fake-model-server';

/** Which step of the agent-to-agent flow a model request belongs to, read from its system prompt. */
export type FlowStep = 'round-one' | 'ping-pong' | 'announce' | 'plain';

/** What a scripted agent sees of one model request. */
export interface BrainInput {
  agentId: string;
  step: FlowStep;
  /** Text of the last user message. */
  message: string;
  /** Content of the last message when it is a tool result (the model is being told what its call did). */
  toolResult?: Record<string, unknown>;
  system: string;
}

export type BrainAnswer = { text: string } | { tool: string; args: Record<string, unknown> };

/**
 * Lets a test script several agents behind one fake OpenAI server: each request is decoded (which agent,
 * which flow step, tool result or not) and answered by `decide`.
 */
export function agentBrain(server: FakeOpenAiServer, decide: (input: BrainInput) => BrainAnswer): (req: RecordedRequest) => FakeReply {
  return (req) => {
    const messages: Array<{ role: string; content: string | null }> = req.body.messages;
    const system = messages.find((m) => m.role === 'system')?.content ?? '';
    const agentId = /agent id "([^"]+)"/.exec(system)?.[1] ?? 'unknown';
    const step: FlowStep = system.includes('The agent-to-agent exchange is over')
      ? 'announce'
      : system.includes('Agent-to-agent conversation, turn')
        ? 'ping-pong'
        : system.includes('Agent-to-agent message')
          ? 'round-one'
          : 'plain';
    const last = messages.at(-1);
    const message = lastUserText(req);
    const toolResult = last?.role === 'tool' ? (JSON.parse(last.content ?? '{}') as Record<string, unknown>) : undefined;
    const answer = decide({ agentId, step, message, toolResult, system });
    return 'text' in answer ? server.text(answer.text)(req) : server.toolCall(answer.tool, answer.args)(req);
  };
}
