import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Seconds: a run is a model call or several, with tools in between. */
const RUN_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
/** Seconds: one model call, one outbound A2A call. */
const CALL_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Seconds: one inbound A2A request, from the fast answers (GetTask) to a blocking SendMessage. */
const REQUEST_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Every series the gateway exports, in one place (docs/operations.md#metrics lists them with their labels). Names
 * follow Prometheus' conventions: `_total` counters, `_seconds` histograms, base units.
 */
export function defineMetrics(registry: Registry, scrapeMemory: () => Promise<void>) {
  const registers = [registry];
  // A scrape asks every metric at once, so each of the three memory gauges awaits the same read: one read per scrape,
  // and none of them shows the previous scrape's values.
  let memoryRead: Promise<void> | undefined;
  const readMemory = (): Promise<void> =>
    (memoryRead ??= scrapeMemory().finally(() => {
      memoryRead = undefined;
    }));
  return {
    configReloads: new Counter({
      name: 'clawgate_config_reload_total',
      help: 'Config reload attempts by result (applied, unchanged, rejected).',
      labelNames: ['result'],
      registers,
    }),
    configRevision: new Gauge({
      name: 'clawgate_config_revision_info',
      help: 'The config revision being served (value 1).',
      labelNames: ['revision'],
      registers,
    }),
    runs: new Counter({
      name: 'clawgate_runs_total',
      help: 'Agent runs that ended, by agent and outcome (completed, failed, aborted).',
      labelNames: ['agent', 'outcome'],
      registers,
    }),
    runDuration: new Histogram({
      name: 'clawgate_run_duration_seconds',
      help: 'Agent run duration from start to end (queue time excluded), by model provider.',
      labelNames: ['provider'],
      buckets: RUN_BUCKETS,
      registers,
    }),
    modelCalls: new Histogram({
      name: 'clawgate_model_call_duration_seconds',
      help: 'Model call latency by model provider and outcome (ok, error).',
      labelNames: ['provider', 'outcome'],
      buckets: CALL_BUCKETS,
      registers,
    }),
    toolCalls: new Counter({
      name: 'clawgate_tool_calls_total',
      help: 'Tool calls by tool and the status of their result (ok, accepted, forbidden, not_found, error, timeout, ...).',
      labelNames: ['tool', 'outcome'],
      registers,
    }),
    mcpCalls: new Counter({
      name: 'clawgate_mcp_calls_total',
      help: 'MCP tool calls by server, tool and outcome (ok, error: the tool reported one, timeout, failed: no answer, cancelled).',
      labelNames: ['server', 'tool', 'outcome'],
      registers,
    }),
    mcpCallDuration: new Histogram({
      name: 'clawgate_mcp_call_duration_seconds',
      help: 'MCP tool call latency by server, tool and outcome.',
      labelNames: ['server', 'tool', 'outcome'],
      buckets: CALL_BUCKETS,
      registers,
    }),
    sessionsSend: new Counter({
      name: 'clawgate_sessions_send_total',
      help: 'sessions_send calls by outcome (the status of the result) and hops (the chain hop of the message sent).',
      labelNames: ['outcome', 'hops'],
      registers,
    }),
    a2aRequests: new Histogram({
      name: 'clawgate_a2a_request_duration_seconds',
      help: 'A2A requests served, by method, binding (jsonrpc, http-json) and code (OK or the error code).',
      labelNames: ['method', 'binding', 'code'],
      buckets: REQUEST_BUCKETS,
      registers,
    }),
    a2aTasks: new Counter({
      name: 'clawgate_a2a_tasks_total',
      help: 'A2A tasks that reached a state (submitted, working, input_required, completed, failed, canceled, rejected).',
      labelNames: ['state'],
      registers,
    }),
    rateLimited: new Counter({
      name: 'clawgate_rate_limited_total',
      help: 'Requests refused by a rate limit, by channel (a2a, openai, mcp, plugin) and peer (the A2A peer, the key name, or <plugin>/<key>).',
      labelNames: ['channel', 'peer'],
      registers,
    }),
    authRefusals: new Counter({
      name: 'clawgate_auth_refusals_total',
      help: 'Requests refused for their credential, by edge (a2a, http, openai, mcp, admin, plugin) and reason (missing, invalid).',
      labelNames: ['edge', 'reason'],
      registers,
    }),
    outboundCalls: new Histogram({
      name: 'clawgate_outbound_call_duration_seconds',
      help: 'Calls to A2A peers by peer, method and outcome (ok or the failure reason).',
      labelNames: ['peer', 'method', 'outcome'],
      buckets: CALL_BUCKETS,
      registers,
    }),
    pluginEvents: new Counter({
      name: 'clawgate_plugin_events_total',
      help: 'Events plugins counted (api.count), by plugin and event name.',
      labelNames: ['plugin', 'event'],
      registers,
    }),
    pluginHookFailures: new Counter({
      name: 'clawgate_plugin_hook_failures_total',
      help: 'Plugin hook handlers skipped, by plugin, hook and reason (error: it threw; timeout: it overran its budget).',
      labelNames: ['plugin', 'hook', 'reason'],
      registers,
    }),
    channelMessages: new Counter({
      name: 'clawgate_channel_messages_total',
      help: 'Chat channel messages by channel, account and direction (in: handed to the gateway; out: delivered to the platform).',
      labelNames: ['channel', 'account', 'direction'],
      registers,
    }),
    channelDeliveryFailures: new Counter({
      name: 'clawgate_channel_delivery_failures_total',
      help: 'Chat channel deliveries the platform did not accept (after the plugin retried), by channel and account.',
      labelNames: ['channel', 'account'],
      registers,
    }),
    modelTokens: new Counter({
      name: 'clawgate_model_tokens_total',
      help: 'Tokens model calls reported, by agent, model (provider/model) and kind (input, output, cached: the part of input read from the cache).',
      labelNames: ['agent', 'model', 'kind'],
      registers,
    }),
    modelCost: new Counter({
      name: 'clawgate_model_cost_total',
      help: 'What model calls cost, priced from models.providers.<name>.models[].cost (per million tokens, in its unit), by agent and model.',
      labelNames: ['agent', 'model'],
      registers,
    }),
    budgetSoftLimits: new Counter({
      name: 'clawgate_budget_soft_limit_total',
      help: 'Budgets that went past their softAt fraction (once per budget, id and window), by budget.',
      labelNames: ['budget'],
      registers,
    }),
    toolApprovals: new Counter({
      name: 'clawgate_tool_approvals_total',
      help: 'Tool calls that waited for an operator (requested) and how each ended: approved, denied, expired, withdrawn.',
      labelNames: ['outcome'],
      registers,
    }),
    channelReconnects: new Counter({
      name: 'clawgate_channel_reconnects_total',
      help: 'Chat channel reconnections (an account reported reconnecting, or the channel was restarted after failing), by channel and account.',
      labelNames: ['channel', 'account'],
      registers,
    }),
    memoryChunks: new Gauge({
      name: 'clawgate_memory_index_chunks',
      help: 'Chunks in the memory index of each agent whose memory is open.',
      labelNames: ['agent'],
      registers,
      // Read at scrape time, for the three memory gauges at once.
      async collect() {
        await readMemory();
      },
    }),
    memoryPending: new Gauge({
      name: 'clawgate_memory_index_pending_chunks',
      help: 'Chunks still waiting for a vector of the current embedder, per agent.',
      labelNames: ['agent'],
      async collect() {
        await readMemory();
      },
      registers,
    }),
    memoryAwaitingModel: new Gauge({
      name: 'clawgate_memory_index_awaiting_model_chunks',
      help: 'bundled-static: chunks still waiting for the bundled model vector its searches rescore with, per agent.',
      labelNames: ['agent'],
      async collect() {
        await readMemory();
      },
      registers,
    }),
    memoryEmbedded: new Counter({
      name: 'clawgate_memory_embedded_chunks_total',
      help: 'Chunk texts embedded since start, by embedder (bundled, bundled-static, openai); a chunk several agents share counts once.',
      labelNames: ['embedder'],
      async collect() {
        await readMemory();
      },
      registers,
    }),
    memoryLag: new Gauge({
      name: 'clawgate_memory_index_lag_seconds',
      help: 'How long the oldest chunk waiting for a vector has waited, per agent (0 when none waits).',
      labelNames: ['agent'],
      async collect() {
        await readMemory();
      },
      // The agents an anonymous scrape sees as `other` share one series: the longest wait of them (public-series.ts).
      aggregator: 'max',
      registers,
    }),
  };
}

export type MetricDefinitions = ReturnType<typeof defineMetrics>;
