import { parse as acornParse, Comment } from 'acorn';
import * as JSON5 from 'json5';
import { applyJson5Edits, Json5Edit, Json5EditError } from './json5-edit';

/** A hand-edited gateway config: line and block comments, unquoted keys, single quotes, trailing commas, blank lines. */
const CONFIG = `// clawgate gateway configuration
// Edited by hand; the admin API must keep these comments.
{
  /* Where the gateway listens. */
  server: {
    host: '0.0.0.0',
    port: 8080, // default port
  },

  agents: {
    // settings every agent inherits
    defaults: {
      model: 'gpt-4o',
      timeoutMs: 30000,
    },
    list: [
      {
        id: 'main', // the main agent
        model: 'claude',
        tools: ['search', 'fetch'],
      },
      /* helper agent */
      {
        id: 'helper',
        'display-name': 'Helper',
      },
    ],
  },

  bindings: [
    { agent: 'main', channel: 'web' },
    { agent: 'helper', channel: 'slack' }, // slack only
  ],

  tools: {
    // shell is dangerous; keep it disabled
    shell: { enabled: false },
    web: {},
    allowList: [],
  },
}
`;

// Expected values are mutated freely in the tests; `any` keeps that readable.
type Cfg = Record<string, any>;

const original = (): Cfg => JSON5.parse(CONFIG);

/** Every comment of `text`, as written (acorn reports them; the text is wrapped the same way the editor does). */
function commentsOf(text: string): string[] {
  const found: Comment[] = [];
  acornParse(`(${text}\n)`, { ecmaVersion: 'latest', onComment: found });
  return found.map((c) => `(${text}\n)`.slice(c.start, c.end));
}

/** Comments survive verbatim (apart from `removed`), and lines that are only a comment stay whole lines. */
function expectCommentsKept(before: string, after: string, removed: string[] = []): void {
  for (const c of commentsOf(before)) if (!removed.includes(c)) expect(after).toContain(c);
  const afterLines = after.split(/\r?\n/);
  for (const line of before.split(/\r?\n/)) {
    const t = line.trim();
    if ((t.startsWith('//') || t.startsWith('/*')) && !removed.some((r) => line.includes(r))) {
      expect(afterLines).toContain(line);
    }
  }
}

/** The text up to `anchor` (where the change is expected to begin) is byte-identical. */
function expectPrefixKept(before: string, after: string, anchor: string): void {
  const at = before.indexOf(anchor);
  expect(at).toBeGreaterThan(0);
  expect(after.slice(0, at)).toBe(before.slice(0, at));
}

function edit(text: string, ...edits: Json5Edit[]): string {
  const out = applyJson5Edits(text, edits);
  expect(() => JSON5.parse(out)).not.toThrow();
  return out;
}

describe('applyJson5Edits on a realistic config', () => {
  it('(1) sets a nested scalar by splicing only the value', () => {
    const out = edit(CONFIG, { op: 'set', path: ['agents', 'defaults', 'timeoutMs'], value: 60000 });
    expect(out).toBe(CONFIG.replace('timeoutMs: 30000,', 'timeoutMs: 60000,'));
    const want = original();
    want.agents.defaults.timeoutMs = 60000;
    expect(JSON5.parse(out)).toEqual(want);
    expectCommentsKept(CONFIG, out);
    expectPrefixKept(CONFIG, out, '30000');
  });

  it('(2) adds a key after the last property and its trailing comment', () => {
    const out = edit(CONFIG, { op: 'set', path: ['server', 'tls'], value: { enabled: true, certFile: '/etc/cg/cert.pem' } });
    const added = '    tls: {\n      enabled: true,\n      certFile: "/etc/cg/cert.pem",\n    },\n';
    expect(out).toBe(CONFIG.replace('    port: 8080, // default port\n', `$&${added}`));
    const want = original();
    want.server.tls = { enabled: true, certFile: '/etc/cg/cert.pem' };
    expect(JSON5.parse(out)).toEqual(want);
    expectCommentsKept(CONFIG, out);
    expectPrefixKept(CONFIG, out, '\n  },\n\n  agents');
  });

  it('(3) appends an agent to agents.list', () => {
    const agent = { id: 'ops', model: 'gpt-4o-mini', tools: ['shell'] };
    const out = edit(CONFIG, { op: 'set', path: ['agents', 'list', 2], value: agent });
    const added = '      {\n        id: "ops",\n        model: "gpt-4o-mini",\n        tools: ["shell"],\n      },\n';
    expect(out).toBe(CONFIG.replace("        'display-name': 'Helper',\n      },\n", `$&${added}`));
    const want = original();
    want.agents.list.push(agent);
    expect(JSON5.parse(out)).toEqual(want);
    expectCommentsKept(CONFIG, out);
    expectPrefixKept(CONFIG, out, '    ],\n  },\n\n  bindings');
  });

  it('(4) removes array elements with their line and same-line comment', () => {
    let out = edit(CONFIG, { op: 'remove', path: ['bindings', 1] });
    expect(out).toBe(CONFIG.replace("    { agent: 'helper', channel: 'slack' }, // slack only\n", ''));
    let want = original();
    want.bindings.splice(1, 1);
    expect(JSON5.parse(out)).toEqual(want);
    expectCommentsKept(CONFIG, out, ['// slack only']);
    expectPrefixKept(CONFIG, out, "    { agent: 'helper'");

    // A multi-line element goes whole, including comments inside it; the comment before it stays.
    out = edit(CONFIG, { op: 'remove', path: ['agents', 'list', 0] });
    want = original();
    want.agents.list.shift();
    expect(JSON5.parse(out)).toEqual(want);
    expect(out).toContain('    list: [\n      /* helper agent */\n      {\n');
    expectCommentsKept(CONFIG, out, ['// the main agent']);
    expectPrefixKept(CONFIG, out, "      {\n        id: 'main'");
  });

  it('(5) removes properties but leaves the comment lines above them', () => {
    let out = edit(CONFIG, { op: 'remove', path: ['tools', 'shell'] });
    expect(out).toBe(CONFIG.replace('    shell: { enabled: false },\n', ''));
    expect(out).toContain('    // shell is dangerous; keep it disabled\n    web: {},');
    let want = original();
    delete want.tools.shell;
    expect(JSON5.parse(out)).toEqual(want);
    expectCommentsKept(CONFIG, out);

    out = edit(CONFIG, { op: 'remove', path: ['server', 'port'] });
    expect(out).toBe(CONFIG.replace('    port: 8080, // default port\n', ''));
    want = original();
    delete want.server.port;
    expect(JSON5.parse(out)).toEqual(want);
    expectCommentsKept(CONFIG, out, ['// default port']);
    expectPrefixKept(CONFIG, out, '    port:');
  });

  it('(6) adds to an empty object and an empty array', () => {
    const out = edit(
      CONFIG,
      { op: 'set', path: ['tools', 'web', 'proxy'], value: 'http://proxy:3128' },
      { op: 'set', path: ['tools', 'allowList', 0], value: 'search' },
    );
    expect(out).toBe(
      CONFIG.replace('    web: {},', '    web: {\n      proxy: "http://proxy:3128",\n    },').replace(
        'allowList: [],',
        'allowList: ["search"],',
      ),
    );
    const want = original();
    want.tools.web.proxy = 'http://proxy:3128';
    want.tools.allowList.push('search');
    expect(JSON5.parse(out)).toEqual(want);
    expectCommentsKept(CONFIG, out);
    expectPrefixKept(CONFIG, out, '{},');
  });

  it('applies a batch of edits in order', () => {
    const out = edit(
      CONFIG,
      { op: 'set', path: ['server', 'port'], value: 9090 },
      { op: 'set', path: ['agents', 'list', 2], value: { id: 'ops' } },
      { op: 'remove', path: ['agents', 'list', 0] },
      { op: 'set', path: ['agents', 'list', 1, 'model'], value: 'gpt-4o' },
      { op: 'remove', path: ['bindings', 0] },
    );
    const want = original();
    want.server.port = 9090;
    want.agents.list = [want.agents.list[1], { id: 'ops', model: 'gpt-4o' }];
    want.bindings.shift();
    expect(JSON5.parse(out)).toEqual(want);
    expectCommentsKept(CONFIG, out, ['// the main agent']);
  });

  it('addresses quoted keys and keeps the quote style of a replaced string', () => {
    const out = edit(CONFIG, { op: 'set', path: ['agents', 'list', 1, 'display-name'], value: "Helper's bot" });
    expect(out).toContain("'display-name': 'Helper\\'s bot',");
    expect(JSON5.parse(out).agents.list[1]['display-name']).toBe("Helper's bot");
  });

  it('escapes U+2028 and U+2029 in the strings and keys it writes (json5 warns about them raw)', () => {
    const value = { 'a\u2028b': 'line\u2028sep\u2029para' };
    const out = edit(CONFIG, { op: 'set', path: ['server', 'host'], value: 'x\u2028y' }, { op: 'set', path: ['tools', 'web'], value });
    expect(out).not.toMatch(/[\u2028\u2029]/);
    expect(out).toContain("host: 'x\\u2028y',");
    expect(out).toContain('"a\\u2028b": "line\\u2028sep\\u2029para"');
    expect(JSON5.parse(out).server.host).toBe('x\u2028y');
    expect(JSON5.parse(out).tools.web).toEqual(value);
  });

  it('writes keys that are not identifiers double-quoted, and special numbers', () => {
    const out = edit(CONFIG, { op: 'set', path: ['tools', 'web', 'x-limit'], value: { max: Infinity, min: -Infinity, n: NaN } });
    expect(out).toContain('"x-limit": {\n        max: Infinity,\n        min: -Infinity,\n        n: NaN,\n      },');
    expect(JSON5.parse(out).tools.web['x-limit']).toEqual({ max: Infinity, min: -Infinity, n: NaN });
  });

  it('replaces an object value with a multi-line one indented from its line', () => {
    const value = { model: 'o3', timeoutMs: 1, tags: [] };
    const out = edit(CONFIG, { op: 'set', path: ['agents', 'defaults'], value });
    expect(out).toContain('    defaults: {\n      model: "o3",\n      timeoutMs: 1,\n      tags: [],\n    },\n');
    expect(JSON5.parse(out).agents.defaults).toEqual(value);
  });
});

describe('no-op edits', () => {
  it('returns the original text after setting scalars and back', () => {
    const there = edit(
      CONFIG,
      { op: 'set', path: ['server', 'port'], value: 1234 },
      { op: 'set', path: ['server', 'host'], value: '127.0.0.1' },
      { op: 'set', path: ['tools', 'shell', 'enabled'], value: true },
    );
    expect(there).not.toBe(CONFIG);
    const back = edit(
      there,
      { op: 'set', path: ['server', 'port'], value: 8080 },
      { op: 'set', path: ['server', 'host'], value: '0.0.0.0' },
      { op: 'set', path: ['tools', 'shell', 'enabled'], value: false },
    );
    expect(back).toBe(CONFIG);
  });

  it('keeps the text when an object is set to an equal value', () => {
    const same = original().agents.list[0];
    expect(edit(CONFIG, { op: 'set', path: ['agents', 'list', 0], value: same })).toBe(CONFIG);
    expect(applyJson5Edits(CONFIG, [])).toBe(CONFIG);
  });
});

describe('file conventions', () => {
  it('keeps CRLF line endings', () => {
    const crlf = CONFIG.replace(/\n/g, '\r\n');
    const out = edit(
      crlf,
      { op: 'set', path: ['server', 'tls'], value: { enabled: true } },
      { op: 'set', path: ['agents', 'list', 2], value: { id: 'ops' } },
      { op: 'set', path: ['tools', 'web', 'proxy'], value: 'p' },
      { op: 'remove', path: ['bindings', 1] },
      { op: 'remove', path: ['server', 'port'] },
    );
    expect(out).not.toMatch(/[^\r]\n/);
    expect(out).toContain('\r\n    tls: {\r\n      enabled: true,\r\n    },\r\n');
    const want = original();
    want.server.tls = { enabled: true };
    delete want.server.port;
    want.agents.list.push({ id: 'ops' });
    want.tools.web.proxy = 'p';
    want.bindings.pop();
    expect(JSON5.parse(out)).toEqual(want);
    expectCommentsKept(crlf, out, ['// slack only', '// default port']);
  });

  it('uses tabs and no trailing commas when the file does', () => {
    const text = '{\n\t// gateway\n\t"name": "gw",\n\t"list": [\n\t\t1,\n\t\t2 // two\n\t]\n}\n';
    let out = edit(text, { op: 'set', path: ['list', 2], value: 3 });
    expect(out).toBe('{\n\t// gateway\n\t"name": "gw",\n\t"list": [\n\t\t1,\n\t\t2, // two\n\t\t3\n\t]\n}\n');
    out = edit(text, { op: 'set', path: ['extra'], value: { a: [1, { b: 2 }] } });
    expect(out).toBe(
      '{\n\t// gateway\n\t"name": "gw",\n\t"list": [\n\t\t1,\n\t\t2 // two\n\t],\n\textra: {\n\t\ta: [\n\t\t\t1,\n\t\t\t{\n\t\t\t\tb: 2\n\t\t\t}\n\t\t]\n\t}\n}\n',
    );
    // Removing the last element also drops the comma before it: no trailing comma appears.
    out = edit(text, { op: 'remove', path: ['list', 1] });
    expect(out).toBe('{\n\t// gateway\n\t"name": "gw",\n\t"list": [\n\t\t1\n\t]\n}\n');
    expect(JSON5.parse(out)).toEqual({ name: 'gw', list: [1] });
  });

  it('detects a 4-space indent unit', () => {
    const text = '{\n    a: {\n        b: 1\n    }\n}';
    const out = edit(text, { op: 'set', path: ['a', 'c'], value: { d: true } });
    expect(out).toBe('{\n    a: {\n        b: 1,\n        c: {\n            d: true\n        }\n    }\n}');
  });

  it('edits single-line containers in place', () => {
    const text = "{ a: [1, 2, 3], o: { x: 'y' } }";
    expect(edit(text, { op: 'set', path: ['a', 3], value: 4 })).toBe("{ a: [1, 2, 3, 4], o: { x: 'y' } }");
    expect(edit(text, { op: 'remove', path: ['a', 1] })).toBe("{ a: [1, 3], o: { x: 'y' } }");
    expect(edit(text, { op: 'remove', path: ['a', 2] })).toBe("{ a: [1, 2], o: { x: 'y' } }");
    expect(edit(text, { op: 'set', path: ['o', 'z'], value: 1 })).toBe("{ a: [1, 2, 3], o: { x: 'y', z: 1 } }");
    expect(edit(text, { op: 'remove', path: ['o', 'x'] })).toBe('{ a: [1, 2, 3], o: {} }');
  });

  it('keeps comments inside an empty object when adding to it', () => {
    const text = '{\n  web: {\n    // nothing yet\n  },\n}';
    const out = edit(text, { op: 'set', path: ['web', 'port'], value: 1 });
    expect(out).toBe('{\n  web: {\n    // nothing yet\n    port: 1,\n  },\n}');
  });
});

describe('errors', () => {
  const fails = (text: string, e: Json5Edit, message: string | RegExp) => {
    expect(() => applyJson5Edits(text, [e])).toThrow(Json5EditError);
    expect(() => applyJson5Edits(text, [e])).toThrow(message);
  };

  it('names the dotted path of a missing intermediate', () => {
    fails(CONFIG, { op: 'set', path: ['agents', 'nope', 'x'], value: 1 }, 'cannot set agents.nope.x: agents.nope not found');
    fails(CONFIG, { op: 'set', path: ['tools', 'my key', 'x'], value: 1 }, 'cannot set tools["my key"].x: tools["my key"] not found');
    fails(CONFIG, { op: 'remove', path: ['tools', 'nope'] }, 'cannot remove tools.nope: key not found');
  });

  it('rejects an index out of range', () => {
    fails(CONFIG, { op: 'set', path: ['agents', 'list', 5], value: {} }, 'cannot set agents.list[5]: array has 2 elements');
    fails(CONFIG, { op: 'remove', path: ['bindings', 2] }, 'cannot remove bindings[2]: array has 2 elements');
    fails(CONFIG, { op: 'set', path: ['agents', 'list', 3, 'id'], value: 'x' }, 'agents.list[3] not found (array has 2 elements)');
    fails(CONFIG, { op: 'set', path: ['bindings', -1], value: 1 }, 'cannot set bindings[-1]: invalid array index -1');
  });

  it('rejects a top level that is not an object', () => {
    fails('[1, 2]', { op: 'set', path: [0], value: 3 }, 'top level of the document must be an object');
    fails('// just a number\n42', { op: 'set', path: ['a'], value: 3 }, 'top level of the document must be an object');
  });

  it('rejects a key on an array, an index on an object, and descending into a scalar', () => {
    fails(CONFIG, { op: 'set', path: ['bindings', 'x'], value: 1 }, 'cannot set bindings.x: bindings is an array, not an object');
    fails(CONFIG, { op: 'set', path: ['server', 0], value: 1 }, 'cannot set server[0]: server is an object, not an array');
    fails(CONFIG, { op: 'set', path: ['server', 'port', 'x'], value: 1 }, 'server.port is a plain value');
  });

  it('rejects invalid documents and values', () => {
    fails('{ a: 1 + 2 }', { op: 'set', path: ['a'], value: 1 }, /not valid JSON5/);
    fails(CONFIG, { op: 'set', path: [], value: {} }, 'path must not be empty');
    fails(CONFIG, { op: 'set', path: ['server', 'x'], value: undefined }, 'cannot set server.x: value is undefined');
    const loop: Cfg = {};
    loop.self = loop;
    fails(CONFIG, { op: 'set', path: ['server', 'x'], value: loop }, 'cannot set server.x: value contains a circular reference');
    fails(CONFIG, { op: 'set', path: ['server', 'x'], value: () => 1 }, 'cannot set server.x: cannot write a function value');
  });
});
