import { CONFIG_DEFAULTS } from '../config';

/** JSON Schemas of the memory tools' arguments (docs/memory.md#tools); the tool registry validates calls against them. */
export const MEMORY_SEARCH_SCHEMA = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1, maxLength: 2000, description: 'What to look for, in plain words.' },
    maxResults: {
      type: 'integer',
      minimum: 1,
      maximum: 100,
      description: `Results to return [memory.qmd.limits.maxResults, ${CONFIG_DEFAULTS.memory.qmd.limits.maxResults}].`,
    },
    minScore: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      description: `Drop results less relevant than this (scores are in [0, 1]) [memory.qmd.limits.minScore, ${CONFIG_DEFAULTS.memory.qmd.limits.minScore}].`,
    },
  },
  required: ['query'],
  additionalProperties: false,
} as const;

export const MEMORY_GET_SCHEMA = {
  type: 'object',
  properties: {
    path: {
      type: 'string',
      minLength: 1,
      maxLength: 4096,
      description: 'A path as memory_search returned it (e.g. MEMORY.md, memory/2024-05.md, family-sessions/<id>.jsonl).',
    },
    from: { type: 'integer', minimum: 1, description: 'First line to return (1-based) [1].' },
    lines: { type: 'integer', minimum: 1, maximum: 100000, description: 'How many lines [all remaining].' },
  },
  required: ['path'],
  additionalProperties: false,
} as const;

export interface MemorySearchArgs {
  query: string;
  maxResults?: number;
  minScore?: number;
}

export interface MemoryGetArgs {
  path: string;
  from?: number;
  lines?: number;
}
