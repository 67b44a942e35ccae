import { FakeModelServer, FakeReply, FakeSseEvent, FakeStep, RecordedRequest } from './fake-model-server';
import { tokenPieces } from './fake-openai-server';

export interface FakeAnthropicOptions {
  /** When set, requests without `x-api-key: <apiKey>` get Anthropic's 401. */
  apiKey?: string;
}

const USAGE = { input_tokens: 21, output_tokens: 5 };
const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

function errorBody(status: number, message: string) {
  return { type: 'error', error: { type: ERROR_TYPES[status] ?? 'api_error', message } };
}

/**
 * An Anthropic `/v1/messages` endpoint speaking the documented format (typed error envelope, required
 * `anthropic-version` and `max_tokens`, strict user/assistant alternation), scriptable per test. A request with
 * `stream: true` gets the same answer as the API's server-sent events: `message_start`, per block
 * `content_block_start` / `content_block_delta` (`text_delta` word by word, `input_json_delta` fragments) /
 * `content_block_stop`, a `ping`, `message_delta` with the stop reason and output usage, `message_stop`.
 */
export class FakeAnthropicServer extends FakeModelServer {
  private issued = 0;
  /** Tool uses this fake has asked for (id → name and input), to check the results that come back. */
  readonly issuedToolUses = new Map<string, { name: string; input: unknown }>();

  constructor(options: FakeAnthropicOptions = {}) {
    super({
      path: '/v1/messages',
      errorBody,
      precheck: (req) => {
        if (options.apiKey && req.headers['x-api-key'] !== options.apiKey) return { status: 401, message: 'invalid x-api-key' };
        if (!req.headers['anthropic-version']) return { status: 400, message: 'anthropic-version: header is required' };
        if (typeof req.body?.model !== 'string') return { status: 400, message: 'model: Field required' };
        if (typeof req.body?.max_tokens !== 'number') return { status: 400, message: 'max_tokens: Field required' };
        if (req.body.stream !== undefined && typeof req.body.stream !== 'boolean')
          return { status: 400, message: 'stream: Input should be a valid boolean' };
        return alternationProblem(req.body.messages);
      },
    });
  }

  /** The host; the provider appends `/v1/messages`. */
  get baseUrl(): string {
    return this.origin;
  }

  text(text: string, usage: Record<string, number> = USAGE): FakeStep {
    return (req) => message(req, [{ type: 'text', text }], 'end_turn', usage);
  }

  /** Several text blocks in one answer (a plain answer's text joins them with "\n"). */
  texts(...texts: string[]): FakeStep {
    return (req) =>
      message(
        req,
        texts.map((text) => ({ type: 'text', text })),
        'end_turn',
        USAGE,
      );
  }

  /** `count` tokens (`tok1`, ` tok2`, …) streamed `gapMs` apart; unstreamed, one answer after the same time. */
  tokens(count: number, gapMs: number): FakeStep {
    const pieces = tokenPieces(count);
    return (req) => {
      const reply = message(req, [{ type: 'text', text: pieces.join('') }], 'end_turn', USAGE, pieces, gapMs);
      return req.body.stream ? reply : { after: new Promise((resolve) => setTimeout(resolve, count * gapMs)), reply };
    };
  }

  /** Streams `text`, then an `error` event (an overload after the 200), never message_stop. */
  streamError(text: string, errorType: string, messageText: string): FakeStep {
    return (req) => {
      if (!req.body.stream) return { status: 529, json: errorBody(529, messageText) };
      const events = streamEvents(req, [{ type: 'text', text }], 'end_turn', USAGE).slice(0, -3);
      events.push({ event: 'error', data: JSON.stringify({ type: 'error', error: { type: errorType, message: messageText } }) });
      return { status: 200, events };
    };
  }

  /** Streams the start of `text` and ends the response before message_stop (a dropped connection). */
  streamCut(text: string): FakeStep {
    return (req) => ({ status: 200, events: streamEvents(req, [{ type: 'text', text }], 'end_turn', USAGE).slice(0, -3) });
  }

  /** Asks for one tool use, optionally preceded by a text block (as Claude often does). */
  toolUse(name: string, input: unknown, text?: string): FakeStep {
    return (req) => {
      const id = `toolu_${++this.issued}`;
      this.issuedToolUses.set(id, { name, input });
      const blocks: Block[] = [...(text ? [{ type: 'text' as const, text }] : []), { type: 'tool_use', id, name, input }];
      return message(req, blocks, 'tool_use', USAGE);
    };
  }

  /** Answers with text only if the last user turn carries tool_result blocks for every tool_use just issued. */
  textAfterToolResult(text: string): FakeStep {
    return (req) => {
      const problem = this.checkToolResults(req.body.messages);
      return problem ? this.reject(problem) : message(req, [{ type: 'text', text }], 'end_turn', USAGE);
    };
  }

  error(status: number, messageText: string): FakeStep {
    return () => ({ status, json: errorBody(status, messageText) });
  }

  stall(): FakeStep {
    return () => 'stall';
  }

  malformed(): FakeStep {
    return () => ({ status: 200, raw: '<html>502 Bad Gateway</html>' });
  }

  private checkToolResults(messages: any[]): string | undefined {
    const last = messages.at(-1);
    const assistant = messages.at(-2);
    if (last?.role !== 'user' || !Array.isArray(last.content)) return 'the last message must be a user turn with a content array';
    const uses = (assistant?.role === 'assistant' && Array.isArray(assistant.content) ? assistant.content : []).filter(
      (b: { type: string }) => b.type === 'tool_use',
    );
    if (!uses.length) return 'the turn before the tool results must be an assistant turn with tool_use blocks';
    for (const u of uses) {
      const issued = this.issuedToolUses.get(u.id);
      if (!issued || issued.name !== u.name || JSON.stringify(issued.input) !== JSON.stringify(u.input)) {
        return `tool_use ${u.id} was not echoed back as issued`;
      }
    }
    const firstOther = last.content.findIndex((b: { type: string }) => b.type !== 'tool_result');
    const results = firstOther < 0 ? last.content : last.content.slice(0, firstOther);
    if (last.content.slice(results.length).some((b: { type: string }) => b.type === 'tool_result')) {
      return 'tool_result blocks must come first in the user turn';
    }
    for (const r of results) {
      if (typeof r.tool_use_id !== 'string' || typeof r.content !== 'string') return 'tool_result needs tool_use_id and content';
    }
    const answered = new Set(results.map((r: { tool_use_id: string }) => r.tool_use_id));
    const missing = uses.filter((u: { id: string }) => !answered.has(u.id));
    return missing.length ? `no tool_result for ${missing.map((u: { id: string }) => u.id).join(', ')}` : undefined;
  }
}

/** The API rejects conversations that do not start with a user turn or do not alternate roles. */
function alternationProblem(messages: unknown): { status: number; message: string } | undefined {
  if (!Array.isArray(messages) || !messages.length) return { status: 400, message: 'messages: at least one message is required' };
  for (let i = 0; i < messages.length; i++) {
    const expected = i % 2 === 0 ? 'user' : 'assistant';
    if (messages[i]?.role !== expected) return { status: 400, message: `messages.${i}.role: roles must alternate starting with "user"` };
    const content = messages[i].content;
    if (Array.isArray(content) && content.some((b: { type: string; text?: string }) => b.type === 'text' && !b.text)) {
      return { status: 400, message: `messages.${i}: text content blocks must be non-empty` };
    }
  }
  return undefined;
}

function message(
  req: RecordedRequest,
  content: Block[],
  stopReason: string,
  usage: Record<string, number>,
  pieces?: string[],
  gapMs = 0,
): FakeReply {
  if (req.body.stream) return { status: 200, events: streamEvents(req, content, stopReason, usage, pieces), gapMs };
  return {
    status: 200,
    json: {
      id: `msg_${Date.now()}`,
      type: 'message',
      role: 'assistant',
      model: req.body.model,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage,
    },
  };
}

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown };

/**
 * The answer as the Messages API streams it. The last three events are always the closing block's
 * `content_block_stop`, `message_delta` and `message_stop` (tests cut them off to simulate a broken stream).
 */
function streamEvents(
  req: RecordedRequest,
  content: Block[],
  stopReason: string,
  usage: Record<string, number>,
  pieces?: string[],
): FakeSseEvent[] {
  const ev = (type: string, body: Record<string, unknown>): FakeSseEvent => ({ event: type, data: JSON.stringify({ type, ...body }) });
  const events: FakeSseEvent[] = [
    ev('message_start', {
      message: {
        id: `msg_${Date.now()}`,
        type: 'message',
        role: 'assistant',
        model: req.body.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        // As the API does: every input count (cache reads and writes too), output 1 until message_delta.
        usage: { ...usage, output_tokens: 1 },
      },
    }),
  ];
  content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      if (index === 0) events.push(ev('ping', {}));
      for (const text of pieces ?? block.text.match(/\s*\S+\s*/g) ?? []) {
        events.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text } }));
      }
    } else {
      events.push(ev('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }));
      const json = JSON.stringify(block.input);
      const size = Math.ceil(json.length / 3) || 1;
      for (let i = 0; i < json.length; i += size) {
        events.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(i, i + size) } }));
      }
    }
    events.push(ev('content_block_stop', { index }));
  });
  events.push(
    ev('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }),
  );
  events.push(ev('message_stop', {}));
  return events;
}
