import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Code comments point readers at the project's own docs (`docs/<file>.md#<anchor>`), and the docs link to each
 * other. This suite fails when such a reference names a file that does not exist or a heading that is not (or
 * no longer) in it, so renaming a heading means updating the comments and links that cite it.
 *
 * Anchors follow GitHub's rule: the heading text lowercased, every character that is not a letter, digit,
 * underscore, hyphen or space dropped, spaces turned into hyphens; a repeated heading gets `-1`, `-2`, ….
 */

const ROOT = path.resolve(__dirname, '..');
const DOCS = path.join(ROOT, 'docs');
/** Where code references are collected. */
const CODE_DIRS = ['src', 'test', 'bench'];
const THIS_FILE = path.resolve(__filename);

/** `docs/<name>.md` optionally followed by `#<anchor>`, as written in code comments. */
const CODE_REFERENCE = /\bdocs\/([A-Za-z0-9_.-]+\.md)(?:#([\p{L}\p{N}_-]+))?/gu;
/** Relative Markdown links: `](file.md#anchor)`, `](file.md)`, `](#anchor)` (absolute URLs are not checked). */
const MARKDOWN_LINK = /\]\((?![a-z][a-z0-9+.-]*:)([^)\s#]*)(?:#([^)\s]*))?\)/giu;

interface Reference {
  from: string;
  file: string;
  anchor?: string;
}

function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Every heading anchor of a Markdown text, fenced code blocks skipped. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of markdown.split(/\r?\n/)) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker) {
      if (fence === undefined) fence = marker[0];
      else if (marker[0] === fence) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = headingAnchor(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

function filesUnder(dir: string, ext: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    if (name === 'node_modules' || name.startsWith('.')) return [];
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return filesUnder(full, ext);
    return full.endsWith(ext) ? [full] : [];
  });
}

function codeReferences(): Reference[] {
  const out: Reference[] = [];
  for (const file of CODE_DIRS.flatMap((dir) => filesUnder(path.join(ROOT, dir), '.ts'))) {
    if (path.resolve(file) === THIS_FILE) continue;
    const text = readFileSync(file, 'utf8');
    text.split('\n').forEach((line, i) => {
      for (const m of line.matchAll(CODE_REFERENCE)) {
        out.push({ from: `${path.relative(ROOT, file)}:${i + 1}`, file: path.join(DOCS, m[1]), anchor: m[2] });
      }
    });
  }
  return out;
}

function markdownReferences(): Reference[] {
  const out: Reference[] = [];
  const pages = [...filesUnder(DOCS, '.md'), ...filesUnder(path.join(ROOT, 'examples'), '.md'), path.join(ROOT, 'README.md')];
  for (const page of pages) {
    let fence: string | undefined;
    readFileSync(page, 'utf8')
      .split(/\r?\n/)
      .forEach((line, i) => {
        const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
        if (marker) {
          if (fence === undefined) fence = marker[0];
          else if (marker[0] === fence) fence = undefined;
          return;
        }
        if (fence !== undefined) return;
        for (const m of line.matchAll(MARKDOWN_LINK)) {
          const target = m[1] ? path.resolve(path.dirname(page), m[1]) : page;
          if (!target.endsWith('.md')) continue;
          out.push({ from: `${path.relative(ROOT, page)}:${i + 1}`, file: target, anchor: m[2] || undefined });
        }
      });
  }
  return out;
}

function problems(references: Reference[]): string[] {
  const cache = new Map<string, Set<string> | null>();
  const anchors = (file: string): Set<string> | null => {
    if (!cache.has(file)) {
      let text: string | null = null;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        text = null;
      }
      cache.set(file, text === null ? null : anchorsOf(text));
    }
    return cache.get(file)!;
  };
  const out: string[] = [];
  for (const ref of references) {
    const found = anchors(ref.file);
    const target = path.relative(ROOT, ref.file);
    if (found === null) out.push(`${ref.from}: ${target} does not exist`);
    else if (ref.anchor !== undefined && !found.has(ref.anchor)) out.push(`${ref.from}: ${target} has no heading #${ref.anchor}`);
  }
  return out;
}

describe('links into docs/', () => {
  it('computes anchors the way GitHub does', () => {
    expect(headingAnchor('10. Secrets in responses and logs')).toBe('10-secrets-in-responses-and-logs');
    expect(headingAnchor('2. File format: JSON5 and `$schema`')).toBe('2-file-format-json5-and-schema');
    expect(headingAnchor('channels.a2a')).toBe('channelsa2a');
    expect(headingAnchor('sessions_send step by step')).toBe('sessions_send-step-by-step');
    expect(headingAnchor('A2A v1.0 inbound channel')).toBe('a2a-v10-inbound-channel');
    expect([...anchorsOf('# A\n```\n# not a heading\n```\n## A\n### B ###\n')]).toEqual(['a', 'a-1', 'b']);
  });

  it('finds the references it is meant to check', () => {
    expect(codeReferences().filter((r) => r.anchor !== undefined).length).toBeGreaterThan(50);
    expect(markdownReferences().filter((r) => r.anchor !== undefined).length).toBeGreaterThan(50);
  });

  it('every docs/<file>.md#anchor cited in code names an existing file and heading', () => {
    expect(problems(codeReferences())).toEqual([]);
  });

  it('every relative link between the docs (and from README.md and examples/) names an existing file and heading', () => {
    expect(problems(markdownReferences())).toEqual([]);
  });
});
