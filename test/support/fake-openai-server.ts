import { FakeModelServer, FakeReply, FakeSseEvent, FakeStep, RecordedRequest } from './fake-model-server';

export interface FakeOpenAiOptions {
  /** When set, requests without `Authorization: Bearer <apiKey>` get OpenAI's 401. */
  apiKey?: string;
}

const USAGE = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };

/**
 * An OpenAI-compatible `/v1/chat/completions` endpoint speaking the documented request/response format,
 * scriptable per test. `baseUrl` is what a `models.providers.<name>.baseUrl` should point at. A request with
 * `stream: true` gets the same answer as `chat.completion.chunk` server-sent events (text word by word, tool
 * call arguments in fragments, a usage chunk when `stream_options.include_usage`, then `data: [DONE]`).
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
        if (req.body.stream !== undefined && typeof req.body.stream !== 'boolean')
          return { status: 400, message: "'stream' must be a boolean" };
        if (req.body.stream_options !== undefined && req.body.stream !== true) {
          return { status: 400, message: "The 'stream_options' parameter is only allowed when 'stream' is enabled." };
        }
        return undefined;
      },
    });
  }

  get baseUrl(): string {
    return `${this.origin}/v1`;
  }

  /** Answers with plain text. */
  text(text: string, usage: Record<string, unknown> = USAGE): FakeStep {
    return (req) => answer(req, { content: text, finishReason: 'stop', usage });
  }

  /**
   * `count` tokens (`tok1`, ` tok2`, …), streamed `gapMs` apart; a request that does not stream gets them as one
   * answer after the same total time. The text is `tokenText(count)`.
   */
  tokens(count: number, gapMs: number, usage: Record<string, unknown> = USAGE): FakeStep {
    const pieces = tokenPieces(count);
    return (req) => {
      const reply = answer(req, { content: pieces.join(''), pieces, finishReason: 'stop', usage }, gapMs);
      return req.body.stream ? reply : { after: sleep(count * gapMs), reply };
    };
  }

  /** Streams `text`, then an error chunk (what OpenAI sends when a failure comes after the 200). */
  streamError(text: string, message: string): FakeStep {
    return (req) => {
      if (!req.body.stream) return { status: 500, json: { error: { message, type: 'server_error', param: null, code: null } } };
      const events = streamEvents(req, { content: text, finishReason: 'stop', usage: USAGE }, false);
      events.push({ data: JSON.stringify({ error: { message, type: 'server_error', param: null, code: null } }) });
      return { status: 200, events };
    };
  }

  /** Streams the start of `text` and ends the response: no finish_reason, no [DONE] (a dropped connection). */
  streamCut(text: string): FakeStep {
    return (req) => ({ status: 200, events: streamEvents(req, { content: text, finishReason: 'stop', usage: USAGE }, false) });
  }

  /** A plain JSON completion even when the request asked to stream (some compatible servers ignore `stream`). */
  ignoringStream(text: string): FakeStep {
    return (req) => completion(req, { role: 'assistant', content: text }, 'stop', USAGE);
  }

  /** Asks for one tool call; `args` may be a raw string to simulate a model emitting broken JSON. */
  toolCall(name: string, args: Record<string, unknown> | string, text: string | null = null): FakeStep {
    return (req) => {
      const id = `call_${++this.issued}`;
      const argString = typeof args === 'string' ? args : JSON.stringify(args);
      this.issuedToolCalls.set(id, { name, arguments: argString });
      return answer(req, { content: text, toolCalls: [{ id, name, arguments: argString }], finishReason: 'tool_calls', usage: USAGE });
    };
  }

  /**
   * Answers with text only if the request carries, as its last messages, well-formed results for every tool
   * call of the preceding assistant turn (the assistant turn echoed back intact); else a 400 naming the problem.
   */
  textAfterToolResult(text: string): FakeStep {
    return (req) => {
      const problem = this.checkToolResults(req.body.messages);
      return problem ? this.reject(problem) : answer(req, { content: text, finishReason: 'stop', usage: USAGE });
    };
  }

  /** Like textAfterToolResult, with a text made of the tool result the model read (`render` gets its content). */
  textFromToolResult(render: (toolResult: string) => string): FakeStep {
    return (req) => {
      const problem = this.checkToolResults(req.body.messages);
      if (problem) return this.reject(problem);
      const messages: Array<{ role: string; content?: string }> = req.body.messages;
      const result = [...messages].reverse().find((m) => m.role === 'tool')?.content ?? '';
      return answer(req, { content: render(result), finishReason: 'stop', usage: USAGE });
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

function completion(req: RecordedRequest, message: unknown, finishReason: string, usage: Record<string, unknown>): FakeReply {
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

/** What a step answers, before it is put in the non-streamed or the streamed format. */
interface Answer {
  content: string | null;
  /** How `content` streams; default: word by word. */
  pieces?: string[];
  toolCalls?: Array<{ id: string; name: string; arguments: string }>;
  finishReason: string;
  usage: Record<string, unknown>;
}

/** `tok1`, ` tok2`, … `tok<count>`: pieces of a streamed answer whose text is their concatenation. */
export function tokenPieces(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${i ? ' ' : ''}tok${i + 1}`);
}

/** The text of `tokens(count, …)`. */
export function tokenText(count: number): string {
  return tokenPieces(count).join('');
}

function answer(req: RecordedRequest, a: Answer, gapMs = 0): FakeReply {
  if (req.body.stream) return { status: 200, events: streamEvents(req, a), gapMs };
  const message: Record<string, unknown> = { role: 'assistant', content: a.content };
  if (a.toolCalls?.length) {
    message.tool_calls = a.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  }
  return completion(req, message, a.finishReason, a.usage);
}

/**
 * The answer as OpenAI streams it: a role chunk, content pieces, each tool call as a first fragment (id, name,
 * empty arguments) and argument fragments, then — unless `complete` is false — a finish chunk, the usage chunk
 * (if asked for) and `[DONE]`.
 */
function streamEvents(req: RecordedRequest, a: Answer, complete = true): FakeSseEvent[] {
  const id = `chatcmpl-${Date.now()}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null, extra: Record<string, unknown> = {}) => ({
    data: JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created,
      model: req.body.model,
      choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
      ...extra,
    }),
  });
  const events: FakeSseEvent[] = [chunk({ role: 'assistant', content: '' })];
  const pieces = a.pieces ?? (a.content ? (a.content.match(/\s*\S+\s*/g) ?? [a.content]) : []);
  for (const piece of pieces) events.push(chunk({ content: piece }));
  (a.toolCalls ?? []).forEach((call, index) => {
    events.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const fragment of fragments(call.arguments, 3)) events.push(chunk({ tool_calls: [{ index, function: { arguments: fragment } }] }));
  });
  if (!complete) return events;
  events.push(chunk({}, a.finishReason));
  if (req.body.stream_options?.include_usage) {
    events.push({
      data: JSON.stringify({ id, object: 'chat.completion.chunk', created, model: req.body.model, choices: [], usage: a.usage }),
    });
  }
  events.push({ data: '[DONE]' });
  return events;
}

/** `text` cut into `n` fragments (some may be empty when it is short). */
function fragments(text: string, n: number): string[] {
  const size = Math.ceil(text.length / n) || 1;
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
