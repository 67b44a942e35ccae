import { FakeModelServer, FakeReply, FakeSseEvent, FakeStep, RecordedRequest } from './fake-model-server';

const USAGE = {
  input_tokens: 13,
  input_tokens_details: { cached_tokens: 4 },
  output_tokens: 6,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 19,
};

/** What a step answers, before it is put in the plain or the streamed format. */
interface Answer {
  text?: string;
  toolCalls?: Array<{ callId: string; name: string; arguments: string }>;
  status?: 'completed' | 'incomplete';
}

/**
 * OpenAI's Responses API, `POST /v1/responses`, as documented: the request checked as the API checks it (a model,
 * an `input`, `stream` a boolean, every `function_call_output` answering a `function_call` of the same input), a
 * `response` object with `message` / `function_call` output items and usage, and with `stream: true` the typed
 * server-sent events (`response.created`, `response.output_item.added`, `response.output_text.delta`, …,
 * `response.completed`) each carrying its `type` and a `sequence_number`. Errors in OpenAI's envelope.
 */
export class FakeOpenAiResponsesServer extends FakeModelServer {
  private issued = 0;

  constructor(options: { apiKey?: string } = {}) {
    super({
      path: '/v1/responses',
      errorBody: (status, message) => ({
        error: { message, type: status === 401 ? 'invalid_request_error' : 'server_error', param: null, code: null },
      }),
      precheck: (req) => {
        if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
          return { status: 401, message: 'Incorrect API key provided.' };
        }
        if (typeof req.body?.model !== 'string') return { status: 400, message: "Missing required parameter: 'model'." };
        const input = req.body?.input;
        if (typeof input !== 'string' && !Array.isArray(input)) return { status: 400, message: "Missing required parameter: 'input'." };
        if (req.body.stream !== undefined && typeof req.body.stream !== 'boolean')
          return { status: 400, message: "Invalid type for 'stream': expected a boolean." };
        if (Array.isArray(input)) {
          const called = new Set(
            input.filter((i: { type?: string }) => i?.type === 'function_call').map((i: { call_id: string }) => i.call_id),
          );
          const orphan = input.find(
            (i: { type?: string; call_id?: string }) => i?.type === 'function_call_output' && !called.has(i.call_id!),
          );
          if (orphan) return { status: 400, message: `No tool call found for function call output with call_id ${orphan.call_id}.` };
        }
        return undefined;
      },
    });
  }

  get baseUrl(): string {
    return `${this.origin}/v1`;
  }

  text(text: string): FakeStep {
    return (req) => reply(req, { text });
  }

  /** Asks for one function call. */
  toolCall(name: string, args: Record<string, unknown>): FakeStep {
    return (req) => reply(req, { toolCalls: [{ callId: `call_${++this.issued}`, name, arguments: JSON.stringify(args) }] });
  }

  /** Text made of the output of the last `function_call_output` the request carries. */
  textFromToolOutput(render: (output: string) => string): FakeStep {
    return (req) => {
      const outputs = (req.body.input as Array<{ type?: string; output?: string }>).filter((i) => i?.type === 'function_call_output');
      return reply(req, { text: render(outputs.at(-1)?.output ?? '') });
    };
  }

  /** Streams `text`, then `response.failed` (a failure after the 200). */
  streamFailure(text: string, message: string): FakeStep {
    return (req) => {
      const events = streamEvents(req, { text }).slice(0, -1);
      const failed = { ...responseObject(req, { text }), status: 'failed', error: { code: 'server_error', message } };
      events.push(typed('response.failed', events.length, { response: failed }));
      return { status: 200, events };
    };
  }

  /** Streams the start of `text` and ends the response without `response.completed` (a dropped connection). */
  streamCut(text: string): FakeStep {
    return (req) => ({ status: 200, events: streamEvents(req, { text }).slice(0, -1) });
  }

  error(status: number, message: string): FakeStep {
    return () => ({ status, json: { error: { message, type: 'server_error', param: null, code: null } } });
  }
}

function reply(req: RecordedRequest, a: Answer): FakeReply {
  return req.body.stream ? { status: 200, events: streamEvents(req, a) } : { status: 200, json: responseObject(req, a) };
}

function outputItems(a: Answer): Array<Record<string, unknown>> {
  const items: Array<Record<string, unknown>> = [];
  if (a.text !== undefined) {
    items.push({
      type: 'message',
      id: 'msg_1',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: a.text, annotations: [] }],
    });
  }
  for (const [i, c] of (a.toolCalls ?? []).entries()) {
    items.push({ type: 'function_call', id: `fc_${i + 1}`, call_id: c.callId, name: c.name, arguments: c.arguments, status: 'completed' });
  }
  return items;
}

function responseObject(req: RecordedRequest, a: Answer): Record<string, unknown> {
  return {
    id: 'resp_1',
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: a.status ?? 'completed',
    error: null,
    incomplete_details: null,
    model: req.body.model,
    output: outputItems(a),
    usage: USAGE,
  };
}

function typed(type: string, sequence: number, fields: Record<string, unknown>): FakeSseEvent {
  return { event: type, data: JSON.stringify({ type, sequence_number: sequence, ...fields }) };
}

/** The answer as the Responses API streams it, ending with `response.completed`. */
function streamEvents(req: RecordedRequest, a: Answer): FakeSseEvent[] {
  const events: FakeSseEvent[] = [];
  const push = (type: string, fields: Record<string, unknown>) => events.push(typed(type, events.length, fields));
  const inProgress = { ...responseObject(req, a), status: 'in_progress', output: [], usage: null };
  push('response.created', { response: inProgress });
  push('response.in_progress', { response: inProgress });
  outputItems(a).forEach((item, outputIndex) => {
    push('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress' } });
    if (item.type === 'message') {
      push('response.content_part.added', {
        item_id: item.id,
        output_index: outputIndex,
        content_index: 0,
        part: { type: 'output_text', text: '' },
      });
      for (const delta of a.text?.match(/\s*\S+\s*/g) ?? [])
        push('response.output_text.delta', { item_id: item.id, output_index: outputIndex, content_index: 0, delta });
      push('response.output_text.done', { item_id: item.id, output_index: outputIndex, content_index: 0, text: a.text });
    } else {
      push('response.function_call_arguments.delta', { item_id: item.id, output_index: outputIndex, delta: item.arguments });
      push('response.function_call_arguments.done', { item_id: item.id, output_index: outputIndex, arguments: item.arguments });
    }
    push('response.output_item.done', { output_index: outputIndex, item });
  });
  push('response.completed', { response: responseObject(req, a) });
  return events;
}
