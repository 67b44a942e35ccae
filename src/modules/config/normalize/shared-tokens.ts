import type { NormalizeContext } from './normalize-context';

/** A token shared by two callers would make the caller's identity ambiguous. */
export function rejectSharedTokens(ctx: NormalizeContext, at: string, entries: Array<{ name: string; token?: string }>): void {
  const owner = new Map<string, string>();
  for (const { name, token } of entries) {
    if (!token) continue;
    const first = owner.get(token);
    if (first) {
      ctx.errors.push({ path: `${at}.${name}.token`, message: `is the same as the token of "${first}"; every caller needs its own token` });
    } else owner.set(token, name);
  }
}
