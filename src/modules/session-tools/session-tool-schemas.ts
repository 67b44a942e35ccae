/**
 * JSON Schemas of the session tools' arguments (docs/sessions.md#session-tools); the registry validates
 * calls against them.
 */
const SESSION_KEY = { type: 'string', minLength: 1, maxLength: 1024, description: 'A session key, e.g. agent:main:main.' };
const AGENT_ID = { type: 'string', minLength: 1, maxLength: 64, description: 'An agent id.' };
const LABEL = { type: 'string', minLength: 1, maxLength: 512 };

export const SESSIONS_LIST_SCHEMA = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
    agentId: AGENT_ID,
    label: LABEL,
    activeMinutes: { type: 'integer', minimum: 1, description: 'Only sessions active within this many minutes.' },
  },
  additionalProperties: false,
} as const;

export const SESSIONS_HISTORY_SCHEMA = {
  type: 'object',
  properties: {
    sessionKey: SESSION_KEY,
    limit: { type: 'integer', minimum: 1, maximum: 500, default: 20 },
    includeTools: { type: 'boolean', default: false },
  },
  required: ['sessionKey'],
  additionalProperties: false,
} as const;

export const SESSION_STATUS_SCHEMA = {
  type: 'object',
  properties: {
    sessionKey: { ...SESSION_KEY, description: 'Defaults to the calling session.' },
    runId: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      description: 'A runId from a sessions_send or sessions_spawn result: report that run and its exchange instead of a session.',
    },
  },
  additionalProperties: false,
} as const;

export const SESSIONS_SEND_SCHEMA = {
  type: 'object',
  properties: {
    sessionKey: { ...SESSION_KEY, description: 'Target session key.' },
    label: { ...LABEL, description: 'Target session label (with agentId for another agent).' },
    agentId: { ...AGENT_ID, description: 'Target agent; alone it means that agent’s main session.' },
    message: { type: 'string', minLength: 1, maxLength: 65536 },
    timeoutSeconds: { type: 'number', minimum: 0, maximum: 3600, default: 30, description: '0 = do not wait (accepted).' },
  },
  required: ['message'],
  additionalProperties: false,
} as const;

export const SESSIONS_SPAWN_SCHEMA = {
  type: 'object',
  properties: {
    task: { type: 'string', minLength: 1, maxLength: 65536, description: 'What the sub-session should do.' },
    label: LABEL,
    agentId: { ...AGENT_ID, description: 'Agent to run the sub-session (default: the caller’s agent).' },
  },
  required: ['task'],
  additionalProperties: false,
} as const;

export const SUBAGENTS_ACTIONS = ['list', 'steer', 'kill'] as const;

export const SUBAGENTS_SCHEMA = {
  type: 'object',
  properties: {
    action: {
      type: 'string',
      enum: SUBAGENTS_ACTIONS,
      description:
        'list: the sessions this session spawned, with their runs and the runs below them; steer: send one of them a ' +
        'message (its next turn); kill: stop one of them and everything below it.',
    },
    target: {
      type: 'string',
      minLength: 1,
      maxLength: 1024,
      description:
        'steer/kill: the session key (agent:<id>:subagent:<uuid>) or a run id of a session this session spawned, directly or below.',
    },
    message: { type: 'string', minLength: 1, maxLength: 65536, description: 'steer: what to tell it.' },
  },
  required: ['action'],
  additionalProperties: false,
} as const;

export const SESSIONS_YIELD_SCHEMA = {
  type: 'object',
  properties: {
    message: {
      type: 'string',
      minLength: 1,
      maxLength: 65536,
      description: 'What this turn answers while the spawned sessions work (default: a line saying it waits for them).',
    },
  },
  additionalProperties: false,
} as const;

export interface SessionsYieldArgs {
  message?: string;
}

export interface SubagentsArgs {
  action: (typeof SUBAGENTS_ACTIONS)[number];
  target?: string;
  message?: string;
}

export interface SessionsListArgs {
  limit?: number;
  agentId?: string;
  label?: string;
  activeMinutes?: number;
}
export interface SessionsHistoryArgs {
  sessionKey: string;
  limit?: number;
  includeTools?: boolean;
}
export interface SessionStatusArgs {
  sessionKey?: string;
  runId?: string;
}
export interface SessionsSendArgs {
  sessionKey?: string;
  label?: string;
  agentId?: string;
  message: string;
  timeoutSeconds?: number;
}
export interface SessionsSpawnArgs {
  task: string;
  label?: string;
  agentId?: string;
}
