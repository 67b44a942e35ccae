export { AgentRunner } from './agent-runner.service';
export type { RunHandle, StartRunInput } from './agent-runner.service';
// What the offline echo model answers: the benchmarks' SDK peers answer the same words.
export { ECHO_MAX_CHARS, echoWords } from './providers/echo.provider';
export type { ReplyDelta, ReplyDeltaListener } from './reply-deltas';
export { isTerminalRunStatus, MAX_FINISHED_RUNS } from './run-registry';
export type { RunRecord, RunStatus } from './run-registry';
export { notARunIdMessage, parseRunId } from './run-id';
export { RuntimeModule } from './runtime.module';
export { ProviderRegistry } from './provider-registry';
export { ModelProviderError, wantsStream } from './model-provider.port';
export type { ModelProvider, ModelRequest, ModelResponse } from './model-provider.port';
export { RunHooks } from './run-hooks';
export type { RunHookDispatcher, RunHookOutcome } from './run-hooks';
export { isToolAllowed, ToolRegistry } from './tool-registry';
export type { AgentTool, ToolContext, ToolPreparer, ToolResult } from './tool-registry';
export { toolResultFromError } from './tool-result';
