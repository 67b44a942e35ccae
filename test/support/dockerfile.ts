/** Instructions of a Dockerfile as [keyword, arguments], continuation lines joined, comments dropped. */
export function dockerInstructions(text: string): Array<[string, string]> {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [keyword, ...rest] = l.split(/\s+/);
      return [keyword.toUpperCase(), rest.join(' ')];
    });
}

/** The `ENV` variables a Dockerfile sets (`KEY=value` forms). */
export function dockerEnv(instructions: Array<[string, string]>): Record<string, string> {
  return Object.fromEntries(
    instructions.filter(([k]) => k === 'ENV').flatMap(([, args]) => [...args.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1], m[2]])),
  );
}
