/**
 * The agent id patterns of `tools.agentToAgent.allow` and `gateway.http.endpoints.chatCompletions.keys[].agents`:
 * `*` alone → every id; no `*` → that exact id (case-sensitive); otherwise a case-insensitive glob where `*` is any
 * run of characters and every other character is literal. An empty pattern matches nothing. A general glob
 * library is deliberately not used: they give `?`, `[...]`, `{a,b}` and `!` meaning, which this syntax must treat
 * as plain characters.
 */
export function compileAgentPattern(pattern: string): (agentId: string) => boolean {
  if (pattern === '') return () => false;
  if (pattern === '*') return () => true;
  if (!pattern.includes('*')) return (id) => id === pattern;
  const source = pattern
    .replace(/\*+/g, '*') // `a**b` = `a*b`; fewer stars also means less backtracking
    .split('*')
    .map(escapeRegExp)
    .join('.*');
  const re = new RegExp(`^${source}$`, 'is');
  return (id) => re.test(id);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
