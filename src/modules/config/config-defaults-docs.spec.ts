import { keyReferenceSection, normalizePlaceholders, readConfigDoc } from '../../../test/support/config-reference';
import { BUILT_IN_TOOL_NAMES } from '../../common/built-in-tools';
import { configDefaultsByKey } from './config-default-keys';

/**
 * Keeps the defaults stated in docs/configuration.md equal to CONFIG_DEFAULTS.
 *
 * How the key reference states a default (its "Default" column; the doc explains it too):
 * - a cell that starts with a JSON value in backticks states that value (`18789`, `"tree"`, `[]`); words
 *   after it only explain it ("`[]` (all agents)");
 * - a cell that starts with another key in backticks followed by ", else …" says the key falls back to that
 *   key, then to whatever the rest of the cell states ("`agents.defaults.model`, else `"echo/default"`");
 * - anything else ("—", "derived from the path", "all agents") states no value: the key has no default in
 *   the code, it stays unset or is derived.
 */

/** A key as the reference writes it: `agents.defaults.model`, `agents.list[].tools.allow`, `models.providers.<name>`. */
const KEY_PATH = /^[A-Za-z]\w*(?:\[\]|\.\w+|\.<\w+>)*$/;

interface Statement {
  /** Present when the cell states a value. */
  value?: { json: unknown };
  /** The key the cell says this one falls back to. */
  inheritsFrom?: string;
}

interface ReferenceRow {
  keys: string[];
  cell: string;
  statement: Statement;
}

/** Cells of a table line; `\|` inside a cell is a literal bar, not a separator. */
function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

function statementOf(cell: string): Statement {
  const lead = /^`([^`]+)`(.*)$/.exec(cell.trim());
  if (!lead) return {};
  const [, span, rest] = lead;
  try {
    return { value: { json: JSON.parse(span) } };
  } catch {
    // Not a JSON value: perhaps a key it falls back to.
  }
  const fallback = /^,\s*else\s+(.*)$/.exec(rest.trim());
  return fallback && KEY_PATH.test(span) ? { ...statementOf(fallback[1]), inheritsFrom: normalizePlaceholders(span) } : {};
}

/** The rows of every table in the section that has a "Default" column. */
function referenceRows(section: string): ReferenceRow[] {
  const rows: ReferenceRow[] = [];
  let defaultColumn = -1;
  for (const line of section.replace(/^```[\s\S]*?^```/gm, '').split('\n')) {
    if (!line.startsWith('|')) {
      defaultColumn = -1;
      continue;
    }
    const row = cells(line);
    if (defaultColumn < 0) {
      defaultColumn = row.indexOf('Default');
      continue;
    }
    if (/^-+$/.test(row[0]) || !row[0].startsWith('`')) continue;
    const keys = [...row[0].matchAll(/`([^`]+)`/g)].map((m) => normalizePlaceholders(m[1].trim()));
    const cell = row[defaultColumn] ?? '';
    rows.push({ keys, cell, statement: statementOf(cell) });
  }
  return rows;
}

const show = (value: unknown) => JSON.stringify(value);

describe('defaults in docs/configuration.md', () => {
  const doc = readConfigDoc();
  const rows = referenceRows(keyReferenceSection(doc));
  const inCode = configDefaultsByKey();
  const documented = new Set(rows.flatMap((r) => r.keys));

  it('reads the key reference', () => {
    // Guards against a parser that silently finds nothing (and so checks nothing).
    expect(rows.length).toBeGreaterThan(100);
    const byKey = new Map(rows.flatMap((r) => r.keys.map((k) => [k, r.statement] as const)));
    expect(byKey.get('gateway.port')).toEqual({ value: { json: 18789 } });
    expect(byKey.get('agents.list[].model')).toEqual({ value: { json: 'echo/default' }, inheritsFrom: 'agents.defaults.model' });
    expect(byKey.get('agents.entries.<name>.sandbox.scope')).toEqual({ inheritsFrom: 'agents.defaults.sandbox.scope' });
    expect(byKey.get('channels.a2a.exposeAgents')).toEqual({});
  });

  it('states the same default as the code wherever it states one', () => {
    const wrong = rows.flatMap(({ keys, cell, statement }) =>
      statement.value === undefined
        ? []
        : keys.flatMap((key) => {
            if (!inCode.has(key)) return [`${key}: the doc states ${cell}, the code has no default`];
            const code = inCode.get(key);
            return show(code) === show(statement.value?.json) ? [] : [`${key}: the doc states ${cell}, the code has ${show(code)}`];
          }),
    );
    expect(wrong).toEqual([]);
  });

  it('states every default the code has', () => {
    const stated = new Set(rows.filter((r) => r.statement.value !== undefined).flatMap((r) => r.keys));
    const missing = [...inCode]
      .filter(([key]) => !stated.has(key))
      .map(
        ([key, value]) => `${key}: the code defaults to ${show(value)}, the doc ${documented.has(key) ? 'states no value' : 'has no row'}`,
      );
    expect(missing).toEqual([]);
  });

  it('falls back only to keys it documents', () => {
    const dangling = rows
      .flatMap((r) => r.keys.map((key) => [key, r.statement.inheritsFrom] as const))
      .filter(([, from]) => from !== undefined && !documented.has(from))
      .map(([key, from]) => `${key}: falls back to ${from}, which has no row`);
    expect(dangling).toEqual([]);
  });

  it('names exactly the built-in tools as the known tools', () => {
    const sentence = /Known tools: ([^;]*);/.exec(doc);
    if (!sentence) throw new Error('docs/configuration.md no longer says "Known tools: …;"');
    const named = [...sentence[1].matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    expect([...named].sort()).toEqual([...BUILT_IN_TOOL_NAMES].sort());
  });
});
