import type { PluginLogger, PluginToolDefinition } from '../../plugin-sdk';
import type { AgentTool, ToolResult } from '../runtime';
import { asAppError } from './plugin-errors';
import { untilAborted } from './with-deadline';

/**
 * A plugin's tool as the runtime's registry takes it: the registry checks the arguments against `parameters` before
 * `execute` runs and maps what it throws (an `AppError` by its code); what `execute` returns is the result's `result`
 * (a string as is, anything else as JSON). An `execute` that ignores the run's signal is left behind when the run is
 * aborted (cancelled, timed out, shut down), so it cannot hold the session's lane.
 */
export function pluginTool(tool: PluginToolDefinition, logger: PluginLogger): AgentTool {
  return {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    handler: async (ctx, args): Promise<ToolResult> => {
      let value: unknown;
      try {
        const execute = Promise.resolve().then(() =>
          tool.execute(args, { agentId: ctx.agentId, sessionKey: ctx.sessionKey, signal: ctx.signal, logger }),
        );
        value = await untilAborted(execute, ctx.signal);
      } catch (err) {
        throw asAppError(err) ?? err;
      }
      return resultOf(value);
    },
  };
}

function resultOf(value: unknown): ToolResult {
  if (value === undefined) return { status: 'ok' };
  if (typeof value === 'string') return { status: 'ok', result: value };
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (err) {
    throw new Error(`its result cannot be written as JSON: ${(err as Error).message}`);
  }
  return { status: 'ok', result: json === undefined ? null : (JSON.parse(json) as unknown) };
}
