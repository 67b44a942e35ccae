import { createHash } from 'node:crypto';

/** What model APIs accept as a function name (OpenAI: `^[a-zA-Z0-9_-]{1,64}$`; Anthropic the same, 1 to 64). */
const MAX_FUNCTION_NAME = 64;
const UNSAFE = /[^A-Za-z0-9_-]/;
const EVERY_UNSAFE = /[^A-Za-z0-9_-]/g;

/**
 * The name the model sees for tool `tool` of server `server` (docs/mcp.md#tool-names): `mcp__<server>__<tool>` when
 * that is a valid function name no other tool has; otherwise the same with the characters model APIs refuse turned
 * into `_`, cut to fit, and 8 hex digits of a hash of the exact pair added — so two tools never share a name, and a
 * tool keeps its name across restarts and reloads. `taken` holds the names already given out.
 */
export function mcpFunctionName(server: string, tool: string, taken: ReadonlySet<string>): string {
  const plain = `mcp__${server}__${tool}`;
  if (plain.length <= MAX_FUNCTION_NAME && !UNSAFE.test(plain) && !taken.has(plain)) return plain;
  const hash = createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, 8);
  const base = plain.replace(EVERY_UNSAFE, '_').slice(0, MAX_FUNCTION_NAME - hash.length - 1);
  return `${base}_${hash}`;
}
