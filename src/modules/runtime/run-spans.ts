import { SpanKind, type Span, type SpanOptions } from '@opentelemetry/api';
import { CLAWGATE, GEN_AI, SEMCONV } from '../../common/telemetry/span-attributes';
import { markFailed } from '../../common/telemetry/tracing';
import type { InterSessionProvenance } from '../sessions';
import type { ModelResponse } from './model-provider.port';
import type { ResolvedModel } from './provider-registry';
import type { RunRecord } from './run-registry';
import type { ToolResult } from './tool-result';

/**
 * The spans of a run (docs/telemetry.md#spans): `clawgate.run` from the moment it is queued to its end, a `chat
 * <model>` client span per model call (GenAI semantic conventions) and an `execute_tool <name>` span per tool call.
 * Ids, names, counts and statuses only: prompts, replies and tool arguments never become attributes.
 */
export const RUN_SPAN = 'clawgate.run';

export function runSpanOptions(
  run: Pick<RunRecord, 'runId' | 'agentId' | 'sessionKey'>,
  lane: string,
  provenance?: InterSessionProvenance,
): SpanOptions {
  return {
    kind: SpanKind.INTERNAL,
    attributes: {
      [CLAWGATE.agentId]: run.agentId,
      [CLAWGATE.sessionKey]: run.sessionKey,
      [CLAWGATE.runId]: run.runId,
      [CLAWGATE.lane]: lane,
      ...(provenance?.chainId ? { [CLAWGATE.chainId]: provenance.chainId } : {}),
      ...(provenance?.hop !== undefined ? { [CLAWGATE.chainHop]: provenance.hop } : {}),
    },
  };
}

/** Ends the run's span with its outcome: `failed` is an error (typed by what failed), `aborted` is not. */
export function endRunSpan(span: Span, record: RunRecord): void {
  span.setAttribute(CLAWGATE.runStatus, record.status);
  if (record.model) span.setAttribute(CLAWGATE.model, record.model);
  if (record.failovers?.length) span.setAttribute(CLAWGATE.modelFailovers, record.failovers.length);
  if (record.usage) {
    span.setAttribute(GEN_AI.inputTokens, record.usage.inputTokens);
    span.setAttribute(GEN_AI.outputTokens, record.usage.outputTokens);
  }
  if (record.status === 'failed') markFailed(span, 'run_failed');
  span.end();
}

/** The provider families of the GenAI conventions; the offline echo model is the gateway's own. */
const GEN_AI_PROVIDER: Record<string, string> = {
  'openai-chat': 'openai',
  'openai-responses': 'openai',
  'anthropic-messages': 'anthropic',
  echo: 'clawgate.echo',
};

export function modelCallSpanName(model: ResolvedModel): string {
  return `chat ${model.model}`;
}

export function modelCallSpanOptions(model: ResolvedModel): SpanOptions {
  const provider = GEN_AI_PROVIDER[model.settings.api] ?? model.settings.api;
  const attributes: SpanOptions['attributes'] = {
    [GEN_AI.operationName]: 'chat',
    [GEN_AI.system]: provider,
    [GEN_AI.providerName]: provider,
    [GEN_AI.requestModel]: model.model,
    [CLAWGATE.modelProvider]: model.settings.name,
  };
  const server = serverOf(model.settings.baseUrl);
  if (server) Object.assign(attributes, server);
  return { kind: SpanKind.CLIENT, attributes };
}

export function recordModelUsage(span: Span, response: ModelResponse): void {
  if (response.usage?.inputTokens !== undefined) span.setAttribute(GEN_AI.inputTokens, response.usage.inputTokens);
  if (response.usage?.outputTokens !== undefined) span.setAttribute(GEN_AI.outputTokens, response.usage.outputTokens);
}

export function toolSpanOptions(call: { id: string; name: string }): SpanOptions {
  return {
    kind: SpanKind.INTERNAL,
    attributes: { [GEN_AI.operationName]: 'execute_tool', [GEN_AI.toolName]: call.name, [GEN_AI.toolCallId]: call.id },
  };
}

/** A tool answers failures as results (it never throws): `error` and `timeout` are errors of the span, refusals are not. */
export function recordToolResult(span: Span, result: ToolResult): void {
  span.setAttribute(CLAWGATE.toolStatus, result.status);
  if (result.status === 'error' || result.status === 'timeout') markFailed(span, `tool_${result.status}`);
}

function serverOf(baseUrl: string | undefined): Record<string, string | number> | undefined {
  if (!baseUrl) return undefined;
  try {
    const url = new URL(baseUrl);
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    return { [SEMCONV.serverAddress]: url.hostname, [SEMCONV.serverPort]: port };
  } catch {
    return undefined;
  }
}
