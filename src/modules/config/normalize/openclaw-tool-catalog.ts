import { BUILT_IN_TOOLS, BUILT_IN_TOOL_NAMES } from '../../../common/built-in-tools';
import { isMcpToolEntry } from '../../../common/mcp-tool-policy';

/**
 * OpenClaw's tool groups and profiles (its docs: gateway/config-tools.md, "Tool profiles" and "Tool groups"),
 * as data: what `group:<name>` and `tools.profile` stand for in a tool policy. clawgate has only some of these
 * tools; the names it lacks stay here so that a policy naming them is understood, then drop out of what an
 * agent is given.
 */
export const OPENCLAW_TOOL_GROUPS: Readonly<Record<string, readonly string[]>> = {
  'group:runtime': ['exec', 'process', 'code_execution'],
  'group:fs': ['read', 'write', 'edit', 'apply_patch'],
  'group:sessions': [
    'sessions',
    'sessions_list',
    'sessions_history',
    'sessions_search',
    'conversations_list',
    'conversations_send',
    'conversations_turn',
    'sessions_send',
    'sessions_spawn',
    'sessions_yield',
    'subagents',
    'session_status',
    'suggest_task',
    'dismiss_task',
  ],
  'group:memory': ['memory_search', 'memory_get'],
  'group:web': ['web_search', 'x_search', 'web_fetch'],
  'group:ui': ['browser', 'screen', 'dashboard', 'terminal', 'portal', 'canvas', 'show_widget'],
  'group:automation': ['heartbeat_respond', 'cron', 'gateway'],
  'group:messaging': ['message'],
  'group:nodes': ['nodes', 'computer'],
  'group:agents': ['agents_list', 'get_goal', 'create_goal', 'update_goal', 'progress_card', 'ask_user', 'skill_workshop'],
  'group:media': ['image', 'image_generate', 'music_generate', 'video_generate', 'tts'],
};

/** Every tool OpenClaw's docs name in its groups. */
const OPENCLAW_TOOLS: ReadonlySet<string> = new Set(Object.values(OPENCLAW_TOOL_GROUPS).flat());

/**
 * `group:openclaw`: OpenClaw's built-in tools except the file and shell ones and canvas — here with clawgate's own
 * built-in tools (`a2a_send`, `request_input`), which are built in the same way. `group:plugins` stands for the
 * tools the enabled plugins declare; it is filled per config (openclaw-tool-policy.ts), empty here.
 */
const OPENCLAW_GROUP: readonly string[] = [
  ...[...OPENCLAW_TOOLS].filter((t) => !['read', 'write', 'edit', 'apply_patch', 'exec', 'process', 'canvas'].includes(t)),
  ...BUILT_IN_TOOL_NAMES.filter((t) => !OPENCLAW_TOOLS.has(t)),
];

export const TOOL_GROUPS: Readonly<Record<string, readonly string[]>> = {
  ...OPENCLAW_TOOL_GROUPS,
  'group:openclaw': OPENCLAW_GROUP,
  'group:plugins': [],
};

/** The tools of `group:sessions` that suggest or dismiss tasks: OpenClaw leaves them out of the `messaging` profile. */
const SESSION_TASK_TOOLS: readonly string[] = ['suggest_task', 'dismiss_task'];

export const TOOL_PROFILES = ['minimal', 'coding', 'messaging', 'full'] as const;
export type ToolProfile = (typeof TOOL_PROFILES)[number];

/** What each profile allows before allow/deny; `full` (or no profile) restricts nothing. */
export const PROFILE_TOOLS: Readonly<Record<Exclude<ToolProfile, 'full'>, readonly string[]>> = {
  minimal: ['session_status'],
  coding: [
    ...OPENCLAW_TOOL_GROUPS['group:fs'],
    ...OPENCLAW_TOOL_GROUPS['group:runtime'],
    ...OPENCLAW_TOOL_GROUPS['group:web'],
    ...OPENCLAW_TOOL_GROUPS['group:sessions'],
    ...OPENCLAW_TOOL_GROUPS['group:memory'],
    'cron',
    'get_goal',
    'create_goal',
    'update_goal',
    'progress_card',
    'ask_user',
    'skill_workshop',
    'image',
    'image_generate',
    'music_generate',
    'video_generate',
  ],
  // OpenClaw's table lists the session tools one by one: `group:sessions` without the task suggestions, plus `ask_user`.
  messaging: [
    ...OPENCLAW_TOOL_GROUPS['group:messaging'],
    ...OPENCLAW_TOOL_GROUPS['group:sessions'].filter((t) => !SESSION_TASK_TOOLS.includes(t)),
    'ask_user',
  ],
};

/**
 * OpenClaw names with a clawgate tool that does the same: `bash` is OpenClaw's alias of `exec`; `ask_user` (ask the
 * person a question and wait) is what clawgate's `request_input` does (the A2A INPUT_REQUIRED turn).
 */
export const TOOL_ALIASES: Readonly<Record<string, readonly string[]>> = {
  bash: ['exec'],
  ask_user: ['ask_user', BUILT_IN_TOOLS.requestInput],
};

/** A tool OpenClaw documents that this gateway does not have: dropped from policies, reported once. */
export function isOpenClawOnlyTool(name: string): boolean {
  return OPENCLAW_TOOLS.has(name) && !(BUILT_IN_TOOL_NAMES as readonly string[]).includes(name);
}

/** Every tool name a policy pattern (`sessions_*`) is matched against. */
export const KNOWN_TOOL_NAMES: readonly string[] = [...new Set([...OPENCLAW_TOOLS, ...BUILT_IN_TOOL_NAMES])];

/**
 * Whether a policy entry needs no "not provided" warning: a tool of this gateway (or an alias of one), a tool an
 * enabled plugin declares (`pluginTools`, lower case), a group or a pattern.
 */
export function isProvidedOrPattern(entry: string, pluginTools: ReadonlySet<string> = new Set()): boolean {
  const name = entry.trim().toLowerCase();
  if (name.startsWith('group:') || name.includes('*') || pluginTools.has(name) || isMcpToolEntry(entry.trim())) return true;
  return (TOOL_ALIASES[name] ?? [name]).some((t) => (BUILT_IN_TOOL_NAMES as readonly string[]).includes(t));
}
