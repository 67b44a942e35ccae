/**
 * A small glob matcher for collection patterns (`**\/*.md`, `*.jsonl`, `{a,b}`, `?`, `[...]`). Node 20's
 * `path.matchesGlob` prints an ExperimentalWarning and the full-featured matchers are not direct
 * dependencies, so the few features collections need are compiled to a RegExp here.
 * Paths are relative, `/`-separated; hidden segments are never part of a collection (see isHiddenPath).
 */
const cache = new Map<string, RegExp>();

export function globToRegExp(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (!re) {
    re = new RegExp(`^${compile(pattern)}$`);
    cache.set(pattern, re);
  }
  return re;
}

/** True when the relative path `rel` (either separator) matches `pattern`. */
export function globMatches(pattern: string, rel: string): boolean {
  return globToRegExp(pattern).test(rel.split('\\').join('/'));
}

/** How many directory levels below the root a pattern can reach; undefined = unbounded (`**`). */
export function globDepth(pattern: string): number | undefined {
  if (pattern.includes('**')) return undefined;
  // Inside braces each alternative counts on its own; the deepest one wins.
  return Math.max(...expandBraces(pattern).map((p) => p.split('/').length - 1));
}

/** Dot-files and dot-directories (editor swap files, .git, .obsidian) are never indexed or served. */
export function isHiddenPath(rel: string): boolean {
  return rel.split(/[\\/]/).some((seg) => seg.startsWith('.') && seg !== '.' && seg !== '..');
}

function compile(pattern: string): string {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      const atSegmentStart = i === 0 || pattern[i - 1] === '/';
      if (atSegmentStart && pattern[i + 2] === '/') {
        out += '(?:[^/]*/)*'; // `**/`: zero or more whole directories
        i += 3;
      } else {
        out += '.*';
        i += 2;
      }
    } else if (c === '*') {
      out += '[^/]*';
      i++;
    } else if (c === '?') {
      out += '[^/]';
      i++;
    } else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) {
        out += '\\[';
        i++;
      } else {
        const body = pattern
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        out += `[${body}]`;
        i = end + 1;
      }
    } else if (c === '{') {
      const end = matchingBrace(pattern, i);
      if (end < 0) {
        out += '\\{';
        i++;
      } else {
        out += `(?:${splitTopLevel(pattern.slice(i + 1, end))
          .map(compile)
          .join('|')})`;
        i = end + 1;
      }
    } else {
      out += c.replace(/[.+^$()|\\\]}]/g, '\\$&');
      i++;
    }
  }
  return out;
}

function matchingBrace(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === '{') depth++;
    else if (s[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

function splitTopLevel(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '{') depth++;
    else if (s[i] === '}') depth--;
    else if (s[i] === ',' && depth === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}

function expandBraces(pattern: string): string[] {
  const open = pattern.indexOf('{');
  const close = open < 0 ? -1 : matchingBrace(pattern, open);
  if (close < 0) return [pattern];
  const head = pattern.slice(0, open);
  const tail = pattern.slice(close + 1);
  return splitTopLevel(pattern.slice(open + 1, close)).flatMap((alt) => expandBraces(head + alt + tail));
}
