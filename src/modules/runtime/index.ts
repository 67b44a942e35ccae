export { AgentRunner } from './agent-runner.service';
export type { RunHandle, StartRunInput } from './agent-runner.service';
export { isTerminalRunStatus, MAX_FINISHED_RUNS } from './run-registry';
export type { RunRecord, RunStatus } from './run-registry';
export { notARunIdMessage, parseRunId } from './run-id';
export { RuntimeModule } from './runtime.module';
export { ToolRegistry } from './tool-registry';
export type { ToolContext, ToolResult } from './tool-registry';
export { toolResultFromError } from './tool-result';
