export { AgentRunner } from './agent-runner.service';
export type { RunHandle, StartRunInput } from './agent-runner.service';
export type { ReplyDelta, ReplyDeltaListener } from './reply-deltas';
export { isTerminalRunStatus } from './run-registry';
export type { RunRecord } from './run-registry';
export { RuntimeModule } from './runtime.module';
export { ToolRegistry } from './tool-registry';
export type { ToolContext, ToolResult } from './tool-registry';
export { toolResultFromError } from './tool-result';
