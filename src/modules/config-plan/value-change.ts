/** A setting whose value differs between the current and the candidate config (never a secret). */
export interface ValueChange {
  key: string;
  before: unknown;
  after: unknown;
}

/** The entries of `keys` whose values differ (compared as JSON, so lists and objects compare by content). */
export function changedValues(keys: ReadonlyArray<[key: string, before: unknown, after: unknown]>): ValueChange[] {
  return keys.filter(([, a, b]) => JSON.stringify(a) !== JSON.stringify(b)).map(([key, before, after]) => ({ key, before, after }));
}

/** Keys only in `after`, only in `before`, and in both. */
export function splitKeys(before: Iterable<string>, after: Iterable<string>): { added: string[]; removed: string[]; kept: string[] } {
  const was = new Set(before);
  const now = new Set(after);
  return {
    added: [...now].filter((k) => !was.has(k)),
    removed: [...was].filter((k) => !now.has(k)),
    kept: [...was].filter((k) => now.has(k)),
  };
}
