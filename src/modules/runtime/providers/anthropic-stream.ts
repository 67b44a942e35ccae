import type { ModelProviderSettings } from '../../config';
import type { ModelResponse, ToolCall } from '../model-provider.port';
import { anthropicUsage, toArguments } from './anthropic-response';
import { malformed, providerError, providerErrorMessage, streamEventObject } from './http-json';
import { INVALID_ARGUMENTS_KEY } from './openai-response';
import { isRecord } from '../../../common/is-record';

/** A content block being assembled: text, or a tool_use whose input arrives as JSON fragments. */
type OpenBlock = { type: 'text' } | { type: 'tool_use'; id: string; name: string; json: string; input: unknown } | { type: 'other' };

interface StreamEvent {
  type?: unknown;
  index?: unknown;
  message?: { usage?: Record<string, unknown> };
  content_block?: { type?: unknown; text?: unknown; id?: unknown; name?: unknown; input?: unknown };
  delta?: { type?: unknown; text?: unknown; partial_json?: unknown };
  usage?: Record<string, unknown>;
  error?: unknown;
}

/**
 * Builds a Messages API answer from its server-sent events (`stream: true`): `message_start` (input usage),
 * `content_block_start` / `_delta` / `_stop` per block (`text_delta` for text, `input_json_delta` fragments
 * for a tool_use input), `message_delta` (the final output usage), `message_stop`. Text blocks are joined
 * with a newline, as a plain answer's are, and that newline is reported as a delta too, so the deltas add up
 * to exactly the answer's text. An `error` event, or a stream that ends before `message_stop`, fails the call.
 */
export class AnthropicStreamAssembler {
  private readonly blocks = new Map<number, OpenBlock>();
  private readonly toolCalls: ToolCall[] = [];
  private text = '';
  private textBlocks = 0;
  private inputTokens?: number;
  private outputTokens?: number;
  private cacheRead?: number;
  private cacheWrite?: number;
  private stopped = false;

  constructor(
    private readonly settings: ModelProviderSettings,
    private readonly onText: (text: string) => void,
  ) {}

  /** One event (its SSE `event` name and data); `'stop'` at `message_stop`. */
  accept(name: string | undefined, data: string): 'stop' | undefined {
    const parsed = streamEventObject(this.settings, data);
    const event = parsed as unknown as StreamEvent;
    // The data's `type` is authoritative; the SSE event name repeats it.
    const type = typeof event.type === 'string' ? event.type : name;
    switch (type) {
      case 'message_start':
        this.takeUsage(event.message?.usage);
        return undefined;
      case 'content_block_start':
        this.open(this.indexOf(event), event.content_block);
        return undefined;
      case 'content_block_delta':
        this.extend(this.indexOf(event), event.delta);
        return undefined;
      case 'content_block_stop':
        this.close(this.indexOf(event));
        return undefined;
      case 'message_delta':
        this.takeUsage(event.usage);
        return undefined;
      case 'message_stop':
        this.stopped = true;
        return 'stop';
      case 'error': {
        const detail = providerErrorMessage(this.settings, JSON.stringify({ error: event.error }));
        throw providerError(this.settings, `model provider ${this.settings.name} failed while streaming: ${detail}`);
      }
      default:
        return undefined; // ping, and event kinds newer than this code
    }
  }

  /** The whole answer once `message_stop` came. */
  result(): ModelResponse {
    if (!this.stopped) {
      throw providerError(this.settings, `model provider ${this.settings.name} ended its stream before message_stop`);
    }
    for (const index of [...this.blocks.keys()]) this.close(index); // a block the server never closed
    const usage =
      this.inputTokens === undefined && this.outputTokens === undefined
        ? undefined
        : anthropicUsage(this.inputTokens, this.outputTokens, this.cacheRead, this.cacheWrite);
    return { text: this.text, toolCalls: this.toolCalls, usage };
  }

  private indexOf(event: StreamEvent): number {
    if (typeof event.index !== 'number' || !Number.isInteger(event.index))
      throw malformed(this.settings, `a ${String(event.type)} event has no index`);
    return event.index;
  }

  private open(index: number, block: StreamEvent['content_block']): void {
    if (block?.type === 'text') {
      // Plain answers join text blocks with "\n"; the separator is part of what streams.
      if (this.textBlocks++ > 0) this.emit('\n');
      this.blocks.set(index, { type: 'text' });
      if (typeof block.text === 'string' && block.text) this.emit(block.text);
    } else if (block?.type === 'tool_use') {
      if (typeof block.name !== 'string' || !block.name) throw malformed(this.settings, `content block ${index} (tool_use) has no name`);
      const id = typeof block.id === 'string' && block.id ? block.id : `toolu_${index}`;
      this.blocks.set(index, { type: 'tool_use', id, name: block.name, json: '', input: block.input });
    } else {
      this.blocks.set(index, { type: 'other' }); // thinking, server tools: nothing the runner can use
    }
  }

  private extend(index: number, delta: StreamEvent['delta']): void {
    const block = this.blocks.get(index);
    if (!block) throw malformed(this.settings, `a content_block_delta for block ${index}, which was never started`);
    if (block.type === 'text' && delta?.type === 'text_delta') {
      if (typeof delta.text !== 'string') throw malformed(this.settings, `a text_delta of block ${index} has no text`);
      this.emit(delta.text);
    } else if (block.type === 'tool_use' && delta?.type === 'input_json_delta') {
      if (typeof delta.partial_json !== 'string')
        throw malformed(this.settings, `an input_json_delta of block ${index} has no partial_json`);
      block.json += delta.partial_json;
    }
  }

  private close(index: number): void {
    const block = this.blocks.get(index);
    this.blocks.delete(index);
    if (block?.type !== 'tool_use') return;
    // The start event carries `input: {}`; the real input is the JSON the deltas spelled out.
    this.toolCalls.push({
      id: block.id,
      name: block.name,
      arguments: block.json.trim() ? parseInput(block.json) : toArguments(block.input),
    });
  }

  private emit(text: string): void {
    if (!text) return;
    this.text += text;
    this.onText(text);
  }

  private takeUsage(usage: Record<string, unknown> | undefined): void {
    const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
    // message_delta's output_tokens is the running total, so the last one wins.
    this.inputTokens = num(usage?.input_tokens) ?? this.inputTokens;
    this.outputTokens = num(usage?.output_tokens) ?? this.outputTokens;
    this.cacheRead = num(usage?.cache_read_input_tokens) ?? this.cacheRead;
    this.cacheWrite = num(usage?.cache_creation_input_tokens) ?? this.cacheWrite;
  }
}

/** A tool input spelled out by input_json_delta fragments; unusable JSON goes to the model as in a plain answer. */
function parseInput(json: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(json);
    if (isRecord(parsed)) return parsed;
  } catch {
    // fall through
  }
  return { [INVALID_ARGUMENTS_KEY]: json };
}
