/**
 * The tools this gateway implements, by name. The modules that register them with the ToolRegistry take
 * their names from here, and config normalization checks `tools.allow`/`tools.deny` against the same list,
 * so a tool cannot be added or renamed in one place and missed in the other. It sits in common/ because the
 * config module must not depend on the runtime.
 */
export const BUILT_IN_TOOLS = Object.freeze({
  sessionsList: 'sessions_list',
  sessionsHistory: 'sessions_history',
  sessionStatus: 'session_status',
  sessionsSend: 'sessions_send',
  sessionsSpawn: 'sessions_spawn',
  subagents: 'subagents',
  sessionsYield: 'sessions_yield',
  memorySearch: 'memory_search',
  memoryGet: 'memory_get',
  a2aSend: 'a2a_send',
  requestInput: 'request_input',
} as const);

export type BuiltInToolName = (typeof BUILT_IN_TOOLS)[keyof typeof BUILT_IN_TOOLS];

/** Every built-in tool name, in the order above. */
export const BUILT_IN_TOOL_NAMES: readonly BuiltInToolName[] = Object.freeze(Object.values(BUILT_IN_TOOLS));
