import { FakeModelServer, FakeReply, FakeStep, RecordedRequest } from './fake-model-server';

export interface FakeOpenAiOptions {
  /** When set, requests without `Authorization: Bearer <apiKey>` get OpenAI's 401. */
  apiKey?: string;
}

const USAGE = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };

/**
 * An OpenAI-compatible `/v1/chat/completions` endpoint speaking the documented request/response format,
 * scriptable per test. `baseUrl` is what a `models.providers.<name>.baseUrl` should point at.
 */
export class FakeOpenAiServer extends FakeModelServer {
  private issued = 0;
  /** Tool calls this fake has asked for (id → arguments string), to check the results that come back. */
  readonly issuedToolCalls = new Map<string, { name: string; arguments: string }>();

  constructor(options: FakeOpenAiOptions = {}) {
    super({
      path: '/v1/chat/completions',
      errorBody: (status, message) => ({
        error: { message, type: status === 401 ? 'invalid_request_error' : 'server_error', param: null, code: null },
      }),
      precheck: (req) => {
        if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
          return {
            status: 401,
            message: 'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
          };
        }
        if (typeof req.body?.model !== 'string') return { status: 400, message: 'you must provide a model parameter' };
        if (!Array.isArray(req.body?.messages) || !req.body.messages.length)
          return { status: 400, message: "'messages' is a required property" };
        return undefined;
      },
    });
  }

  get baseUrl(): string {
    return `${this.origin}/v1`;
  }

  /** Answers with plain text. */
  text(text: string, usage: Record<string, number> = USAGE): FakeStep {
    return (req) => completion(req, { role: 'assistant', content: text }, 'stop', usage);
  }

  /** Asks for one tool call; `args` may be a raw string to simulate a model emitting broken JSON. */
  toolCall(name: string, args: Record<string, unknown> | string, text: string | null = null): FakeStep {
    return (req) => {
      const id = `call_${++this.issued}`;
      const argString = typeof args === 'string' ? args : JSON.stringify(args);
      this.issuedToolCalls.set(id, { name, arguments: argString });
      const message = {
        role: 'assistant',
        content: text,
        tool_calls: [{ id, type: 'function', function: { name, arguments: argString } }],
      };
      return completion(req, message, 'tool_calls', USAGE);
    };
  }

  /**
   * Answers with text only if the request carries, as its last messages, well-formed results for every tool
   * call of the preceding assistant turn (the assistant turn echoed back intact); else a 400 naming the problem.
   */
  textAfterToolResult(text: string): FakeStep {
    return (req) => {
      const problem = this.checkToolResults(req.body.messages);
      return problem ? this.reject(problem) : completion(req, { role: 'assistant', content: text }, 'stop', USAGE);
    };
  }

  error(status: number, message: string): FakeStep {
    return () => ({ status, json: { error: { message, type: 'server_error', param: null, code: null } } });
  }

  stall(): FakeStep {
    return () => 'stall';
  }

  /** An answer that has begun (200, a first byte) and goes on a byte every 100 ms, never finishing. */
  slowStream(): FakeStep {
    return () => 'trickle';
  }

  malformed(): FakeStep {
    return () => ({ status: 200, raw: '{"id": "chatcmpl-1", "choices": [' });
  }

  /** The last tool message's content as the model would see it (tests parse it to check the tool ran). */
  lastToolResult(): string | undefined {
    const messages = this.requests.at(-1)?.body?.messages ?? [];
    return [...messages].reverse().find((m: { role: string }) => m.role === 'tool')?.content;
  }

  private checkToolResults(messages: any[]): string | undefined {
    const assistantAt = messages.map((m) => m.role).lastIndexOf('assistant');
    const assistant = messages[assistantAt];
    if (!assistant?.tool_calls?.length) return 'expected an assistant message with tool_calls before the tool results';
    for (const call of assistant.tool_calls) {
      const issued = this.issuedToolCalls.get(call.id);
      if (!issued) return `assistant tool_calls carries unknown id ${call.id}`;
      if (call.type !== 'function' || call.function?.name !== issued.name || typeof call.function?.arguments !== 'string') {
        return `assistant tool call ${call.id} is not {type:"function", function:{name, arguments: string}}`;
      }
    }
    const results = messages.slice(assistantAt + 1);
    const answered = new Set<string>();
    for (const m of results) {
      if (m.role !== 'tool') return `expected only role "tool" messages after the tool call, got "${m.role}"`;
      if (typeof m.tool_call_id !== 'string' || typeof m.content !== 'string') return 'tool message needs tool_call_id and string content';
      answered.add(m.tool_call_id);
    }
    const missing = assistant.tool_calls.filter((c: { id: string }) => !answered.has(c.id));
    return missing.length ? `no tool result for ${missing.map((c: { id: string }) => c.id).join(', ')}` : undefined;
  }
}

function completion(req: RecordedRequest, message: unknown, finishReason: string, usage: Record<string, number>): FakeReply {
  return {
    status: 200,
    json: {
      id: `chatcmpl-${Date.now()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: req.body.model,
      choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
      usage,
    },
  };
}
