import { AppError } from '../errors/app-error';

/**
 * The attribute names of the gateway's spans (docs/telemetry.md#attributes): OpenTelemetry semantic conventions
 * where one applies (HTTP, GenAI, RPC, error.type), the `clawgate.*` set for what only the gateway knows. Values
 * are ids, names, counts and statuses — never a message body, a prompt, a reply or a secret.
 */
export const ATTR_ERROR_TYPE = 'error.type';

export const CLAWGATE = {
  agentId: 'clawgate.agent.id',
  sessionKey: 'clawgate.session.key',
  runId: 'clawgate.run.id',
  runStatus: 'clawgate.run.status',
  lane: 'clawgate.run.lane',
  chainId: 'clawgate.chain.id',
  /** How many agent-to-agent hops the message being answered is from a person's message. */
  chainHop: 'clawgate.chain.hop',
  targetSessionKey: 'clawgate.target.session_key',
  pingPongTurn: 'clawgate.ping_pong.turn',
  announceStatus: 'clawgate.announce.status',
  toolStatus: 'clawgate.tool.status',
  peer: 'clawgate.peer',
  /** What the peer's Agent Card says of streaming: true, false or unreadable. */
  peerStreams: 'clawgate.peer.streams',
  taskId: 'clawgate.task_id',
  /** The A2A method a request to the A2A server called (either binding). */
  a2aMethod: 'clawgate.a2a.method',
  modelProvider: 'clawgate.model.provider',
  /** The run's model: `provider/model` of the model that answered (a fallback when the ones before it failed). */
  model: 'clawgate.model',
  /** How many models of the run failed before one answered. */
  modelFailovers: 'clawgate.model.failovers',
  memoryResults: 'clawgate.memory.results',
  memoryMode: 'clawgate.memory.mode',
  /** The `mcp.servers` name a tool call went to. */
  mcpServer: 'clawgate.mcp.server',
} as const;

/** The MCP semantic conventions (client spans of tool calls). */
export const MCP = {
  methodName: 'mcp.method.name',
} as const;

/** GenAI semantic conventions (model calls and tool calls). */
export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  system: 'gen_ai.system',
  providerName: 'gen_ai.provider.name',
  requestModel: 'gen_ai.request.model',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  agentId: 'gen_ai.agent.id',
} as const;

/** HTTP, URL, server and RPC semantic conventions. */
export const SEMCONV = {
  httpMethod: 'http.request.method',
  httpStatus: 'http.response.status_code',
  httpRoute: 'http.route',
  urlPath: 'url.path',
  urlScheme: 'url.scheme',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  rpcSystem: 'rpc.system',
  rpcMethod: 'rpc.method',
  rpcJsonRpcErrorCode: 'rpc.jsonrpc.error_code',
} as const;

/** `error.type` of a failure: the AppError's code, else the error's class name — never its message. */
export function errorTypeOf(err: unknown): string {
  if (err instanceof AppError) return err.code;
  if (err instanceof Error) return err.name || 'Error';
  return 'Error';
}
