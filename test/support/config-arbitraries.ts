import fc from 'fast-check';
import { normalizeAgentId } from '../../src/common/agent-id';
import { ADMIN_ROLES } from '../../src/common/auth/roles';
import { BUILT_IN_TOOL_NAMES } from '../../src/common/built-in-tools';
import { RESERVED_KEY_NAMES } from '../../src/modules/config/pipeline/reserved-keys';
import { buildConfigJsonSchema } from '../../src/modules/config/schema/export-schema';
import { PEER_NAME_PATTERN } from '../../src/modules/config/schema/channels.schema';
import { PROVIDER_NAME_PATTERN } from '../../src/modules/config/schema/models.schema';
import { DM_SCOPES, PEER_KINDS, SESSION_VISIBILITIES } from '../../src/modules/config/schema/routing.schema';

/**
 * fast-check arbitraries for openclaw.json: valid configs built section by section from the schema's rules
 * (so a generated document loads without errors), and hostile documents and texts for the loader.
 */

export type Doc = Record<string, unknown>;

const notReserved = (name: string) => !RESERVED_KEY_NAMES.has(name);

/** Names of Map members, which class-transformer skips when it builds a Map; as map names they must work as written. */
const MAP_MEMBER_NAMES = ['get', 'set', 'has', 'delete', 'clear', 'keys', 'values', 'entries', 'size'] as const;

/** Pieces of text a writer has to quote with care: quotes, escapes, comment markers, line and paragraph separators. */
const TRICKY = ['"', "'", '\\', '\n', '\r\n', '\t', '/*', '*/', '//', '\u2028', '\u2029', '\u0000', '\ud800', '😀', 'é', ' '];

/** Free text for names and labels: any code point, but never a `${` (that would be a variable reference). */
const text = (maxLength = 16) =>
  fc
    .oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength }),
      fc.string({
        unit: fc.oneof(fc.constantFrom(...TRICKY), fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 })),
        minLength: 1,
        maxLength: Math.ceil(maxLength / 2),
      }),
    )
    .filter((s) => !s.includes('${'));
const secret = () => fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 24 }).filter((s) => !s.includes('${'));
const httpUrl = fc.constantFrom('https://example.com', 'http://127.0.0.1:8080/hook', 'https://a2a.example.org/rpc', 'http://localhost:9/x');
const cidr = fc.constantFrom('10.0.0.0/8', '192.168.1.1', '::1', 'fd00::/8', '127.0.0.1/32');
const relativeDir = fc.constantFrom('notes', 'docs/shared', 'ws', 'a/b/c');
const collectionName = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,10}$/);
const toolNames = fc.uniqueArray(fc.constantFrom(...BUILT_IN_TOOL_NAMES), { maxLength: 3 });

/** `{ name: value }` with distinct names that are not reserved. */
function dict<T>(name: fc.Arbitrary<string>, value: fc.Arbitrary<T>, maxKeys = 3): fc.Arbitrary<Record<string, T>> {
  return fc
    .uniqueArray(fc.tuple(name.filter(notReserved), value), { selector: ([k]) => k, maxLength: maxKeys })
    .map((entries) => Object.fromEntries(entries));
}

/** Like dict, but every value gets its own distinct token (a shared token is an error). */
function tokenDict<T extends Doc>(name: fc.Arbitrary<string>, entry: fc.Arbitrary<T>, maxKeys = 3): fc.Arbitrary<Record<string, Doc>> {
  return fc
    .uniqueArray(fc.tuple(name.filter(notReserved), entry, secret()), {
      selector: ([k]) => k,
      maxLength: maxKeys,
    })
    .filter((rows) => new Set(rows.map(([, , t]) => t)).size === rows.length)
    .map((rows) => Object.fromEntries(rows.map(([k, e, token]) => [k, { token, ...e }])));
}

const optional = <T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }) => fc.record(model, { requiredKeys: [] }) as fc.Arbitrary<Partial<T>>;

const peerName = fc.oneof(fc.stringMatching(PEER_NAME_PATTERN), fc.constantFrom(...MAP_MEMBER_NAMES));
const providerName = fc.oneof(
  fc.stringMatching(PROVIDER_NAME_PATTERN),
  fc.constantFrom(...MAP_MEMBER_NAMES, 'forEach', 'echo', 'ollama', 'my.provider'),
);

/** An agent id as someone may write it; what matters is what it normalizes to. */
const rawAgentId = fc
  .oneof(
    fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,12}$/),
    fc.constantFrom('Main', 'Code Bot!', '_ops', '__proto__', 'get', 'size', ' Support ', '客服', '-x-'),
    fc.string({ unit: 'binary', maxLength: 12 }),
  )
  .filter((id) => normalizeAgentId(id) !== 'constructor');

const collection = fc.oneof(
  optional({ path: relativeDir, name: collectionName, pattern: fc.constantFrom('**/*.md', '*.txt') }).map((c) => ({ path: 'notes', ...c })),
  fc.record({ path: fc.constantFrom('/srv/shared', '~/notes', '../outside'), name: collectionName }),
);

/** Fields of agents.defaults, which every agent may also set. */
const agentFields = optional({
  workspace: relativeDir,
  sandbox: optional({ mode: fc.constantFrom('off', 'all'), scope: fc.constantFrom('session', 'agent', 'shared') }),
  tools: optional({ allow: toolNames, deny: toolNames }),
  memorySearch: optional({ qmd: optional({ extraCollections: fc.array(collection, { maxLength: 2 }) }) }),
});

function agentEntry(models: fc.Arbitrary<string>) {
  return fc
    .tuple(
      agentFields,
      optional({
        model: models,
        name: text(40),
        default: fc.boolean(),
        agentDir: relativeDir,
        identity: optional({ name: text(40), emoji: fc.constantFrom('💻', '🦀', 'x'), avatar: httpUrl }),
      }),
    )
    .map(([a, b]) => ({ ...a, ...b }));
}

/** `agents` in the list or the map form, and the ids a binding may name (the implicit `main` when there are none). */
function agentsSection(models: fc.Arbitrary<string>): fc.Arbitrary<{ agents: Doc; targets: string[] }> {
  return fc.tuple(fc.uniqueArray(rawAgentId, { selector: normalizeAgentId, maxLength: 4 }), fc.boolean()).chain(([raw, listForm]) => {
    // A key of agents.entries must not be a reserved name; an id in agents.list is a value and may be one.
    const ids = listForm ? raw : raw.filter(notReserved);
    const entries = fc.tuple(...ids.map(() => agentEntry(models)));
    const form = listForm
      ? entries.map((list) => ({ list: list.map((e, i) => ({ id: ids[i], ...e })) }))
      : entries.map((list) => ({ entries: Object.fromEntries(list.map((e, i) => [ids[i], e])) }));
    const defaults = optional({ defaults: fc.tuple(agentFields, optional({ model: models })).map(([d, m]) => ({ ...d, ...m })) });
    return fc.tuple(form, defaults).map(([f, d]) => ({ agents: { ...d, ...f }, targets: ids.length ? ids : ['main'] }));
  });
}

const provider = fc.oneof(
  fc.record({ api: fc.constant('echo'), timeoutMs: fc.integer({ min: 1000, max: 600_000 }) }, { requiredKeys: ['api'] }),
  fc.record(
    {
      api: fc.constantFrom('openai-chat', 'anthropic-messages'),
      baseUrl: httpUrl,
      apiKey: secret(),
      headers: dict(fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,12}$/), secret()),
      timeoutMs: fc.integer({ min: 1000, max: 600_000 }),
    },
    { requiredKeys: ['api', 'baseUrl'] },
  ),
);

const gateway = optional({
  port: fc.integer({ min: 0, max: 65535 }),
  // Loopback only: beyond it a valid config needs auth, which these documents do not always have.
  bind: fc.constantFrom('127.0.0.1', '::1', 'loopback'),
  trustedProxies: fc.array(cidr, { maxLength: 3 }),
  publicUrl: httpUrl,
  reload: optional({ mode: fc.constantFrom('hybrid', 'off'), debounceMs: fc.integer({ min: 0, max: 60_000 }) }),
  admin: optional({
    tokens: fc.array(fc.record({ name: text(), token: secret(), role: fc.constantFrom(...ADMIN_ROLES) }), { maxLength: 2 }),
    sso: optional({
      enabled: fc.boolean(),
      trustedProxies: fc.array(cidr, { maxLength: 2 }),
      userHeader: fc.constantFrom('x-forwarded-user', 'remote-user'),
      groupsHeader: fc.constantFrom('x-forwarded-groups'),
      roleMapping: dict(fc.oneof(text(), fc.constantFrom(...MAP_MEMBER_NAMES)), fc.constantFrom(...ADMIN_ROLES)),
      defaultRole: fc.constantFrom('none', ...ADMIN_ROLES),
      jwt: fc.record(
        { jwksUrl: httpUrl, issuer: text(), audience: text(), algorithms: fc.constant(['RS256']) },
        { requiredKeys: ['jwksUrl'] },
      ),
    }),
    publicDocs: fc.boolean(),
  }),
});

const memory = optional({
  backend: fc.constantFrom('builtin', 'qmd'),
  citations: fc.constantFrom('auto', 'on', 'off'),
  qmd: optional({
    includeDefaultMemory: fc.boolean(),
    sessions: optional({ enabled: fc.boolean() }),
    paths: fc.array(
      fc.oneof(
        fc.record({ path: relativeDir }, { requiredKeys: ['path'] }),
        fc.record({ path: fc.constantFrom('/srv/kb', '~/kb'), name: collectionName }),
      ),
      { maxLength: 2 },
    ),
    update: optional({ debounceMs: fc.integer({ min: 0, max: 600_000 }) }),
    limits: optional({ maxResults: fc.integer({ min: 1, max: 100 }), maxSnippetChars: fc.integer({ min: 50, max: 20_000 }) }),
  }),
  embeddings: optional({ provider: fc.constantFrom('bundled', 'openai', 'none'), baseUrl: httpUrl, model: text() }),
});

/**
 * A config that loads without errors (warnings are fine): agents in either form, bindings to them, model
 * providers the agents use, peers and accounts with distinct tokens, and every other section.
 */
export const validConfig: fc.Arbitrary<Doc> = dict(providerName, provider, 3).chain((providers) => {
  const models = fc.constantFrom('echo/default', 'echo/other', 'anthropic/claude-x', ...Object.keys(providers).map((p) => `${p}/m`));
  return agentsSection(models).chain(({ agents, targets }) => {
    const binding = fc.record({
      // As written in the agent entry or already normalized; `""` has to be written as what it becomes.
      agentId: fc.tuple(fc.constantFrom(...targets), fc.boolean()).map(([id, asIs]) => (asIs && id !== '' ? id : normalizeAgentId(id))),
      match: fc
        .tuple(
          fc.constantFrom('http', 'a2a', 'telegram'),
          optional({
            accountId: fc.constantFrom('*', 'desk', 'get'),
            peer: fc.record({ kind: fc.constantFrom(...PEER_KINDS), id: text() }),
            guildId: text(),
            teamId: text(),
          }),
        )
        .map(([channel, rest]) => ({ channel, ...rest })),
    });
    return fc.record(
      {
        $schema: fc.constant('./schemas/openclaw.schema.json'),
        gateway,
        agents: fc.constant(agents),
        bindings: fc.array(binding, { maxLength: 3 }),
        tools: optional({
          agentToAgent: optional({ enabled: fc.boolean(), allow: fc.array(fc.constantFrom('*', ...targets), { maxLength: 2 }) }),
          sessions: optional({ visibility: fc.constantFrom(...SESSION_VISIBILITIES) }),
        }),
        session: optional({
          dmScope: fc.constantFrom(...DM_SCOPES),
          mainKey: text(),
          agentToAgent: optional({ maxPingPongTurns: fc.integer({ min: 0, max: 5 }), maxChainHops: fc.integer({ min: 1, max: 32 }) }),
        }),
        memory,
        models: fc.constant(Object.keys(providers).length ? { providers } : {}),
        channels: optional({
          a2a: optional({
            enabled: fc.boolean(),
            advertisedUrl: httpUrl,
            replyTimeoutMs: fc.integer({ min: 5000, max: 600_000 }),
            rateLimitPerMinute: fc.nat(),
            keptTasksPerPeer: fc.integer({ min: 1, max: 1_000_000 }),
            exposeAgents: fc.array(fc.constantFrom(...targets), { maxLength: 2 }),
            peers: tokenDict(peerName, optional({ url: httpUrl, outboundToken: secret() })),
          }),
          http: optional({ enabled: fc.boolean(), accounts: tokenDict(peerName, optional({ webhookUrl: httpUrl })) }),
        }),
      },
      { requiredKeys: ['agents', 'models'] },
    );
  });
});

/** Every property name the schema knows, so hostile documents look enough like configs to get deep into validation. */
export const SCHEMA_KEYS: readonly string[] = (() => {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const props = (node as { properties?: unknown }).properties;
    if (props && typeof props === 'object') Object.keys(props).forEach((k) => names.add(k));
    Object.values(node).forEach(visit);
  };
  visit(buildConfigJsonSchema());
  return [...names].sort();
})();

const hostileKey = fc.oneof(
  fc.constantFrom(...RESERVED_KEY_NAMES, ...MAP_MEMBER_NAMES, '$include', '$schema', '', '0', 'a.b', 'x y', '["q"]'),
  fc.constantFrom(...SCHEMA_KEYS),
  fc.string({ maxLength: 8 }),
);

/** A value nested `depth` levels deep, built without recursion (it may be deeper than the stack allows). */
function nested(depth: number, asArray: boolean, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = asArray ? [value] : Object.defineProperty({}, 'a', { value, enumerable: true });
  return value;
}

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      null,
      true,
      0,
      -1,
      1.5,
      1e308,
      '',
      '${X}',
      '$${X}',
      '${',
      'echo/default',
      'constructor/x',
      '../x',
      '/etc/passwd',
      [],
    ),
  },
  { weight: 2, arbitrary: fc.dictionary(hostileKey, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }) },
  // Deep nesting around the limit, now and then far beyond what recursion survives (json5 parses about a
  // megabyte a second, so the largest inputs are kept rare).
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 56, max: 300 }) }, { weight: 1, arbitrary: fc.constant(20_000) }),
        fc.boolean(),
      )
      .map(([d, arr]) => nested(d, arr, 1)),
  },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 100_000 }).map((n) => 'x'.repeat(n)) },
);

/** One change to a document: at the n-th container (in walk order), add a key, replace a value or drop a key. */
interface Mutation {
  at: number;
  kind: 'insert' | 'replace' | 'delete';
  key: string;
  value: unknown;
}
const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('insert', 'replace', 'delete'),
  key: hostileKey,
  value: hostileValue,
});

/**
 * Documents the loader must survive: arbitrary JSON, and valid configs with hostile keys and values put
 * anywhere (reserved names, deep nesting, huge strings, wrong types).
 */
export const hostileDocument: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.dictionary(hostileKey, hostileValue, { maxKeys: 5 }),
  fc.tuple(validConfig, fc.array(mutation, { minLength: 1, maxLength: 4 })).map(([doc, mutations]) => mutate(doc, mutations)),
);

/** Applies the mutations to a copy: generated values are fast-check's and may be shown again when it shrinks. */
function mutate(original: Doc, mutations: Mutation[]): unknown {
  const doc = copy(original);
  for (const m of mutations) {
    const containers: object[] = [];
    const pending: unknown[] = [doc];
    while (pending.length) {
      const node = pending.pop();
      if (typeof node !== 'object' || node === null) continue;
      containers.push(node);
      pending.push(...Object.values(node));
    }
    const target = containers[m.at % containers.length] as Record<string | number, unknown>;
    const keys = Object.keys(target);
    const existing = keys.length ? keys[m.at % keys.length] : m.key;
    if (m.kind === 'delete') delete target[existing];
    else Object.defineProperty(target, m.kind === 'insert' && !Array.isArray(target) ? m.key : existing, writable(copy(m.value)));
  }
  return doc;
}

/** A deep copy that neither recurses nor loses a `__proto__` key. */
const copy = <T>(value: T): T => JSON.parse(jsonText(value)) as T;
const writable = (value: unknown): PropertyDescriptor => ({ value, enumerable: true, writable: true, configurable: true });

/**
 * JSON text of any document, written without recursion (JSON.stringify overflows on deep nesting). Keys
 * are written as given, so `__proto__` stays a key.
 */
export function jsonText(value: unknown): string {
  const out: string[] = [];
  const pending: unknown[] = [value];
  const isRaw = (x: unknown): x is { raw: string } => typeof x === 'object' && x !== null && RAW in x;
  while (pending.length) {
    const item = pending.pop();
    if (isRaw(item)) out.push(item.raw);
    else if (Array.isArray(item)) {
      pending.push(raw(']'));
      for (let i = item.length - 1; i >= 0; i--) pending.push(item[i], ...(i > 0 ? [raw(',')] : []));
      pending.push(raw('['));
    } else if (typeof item === 'object' && item !== null) {
      const entries = Object.entries(item);
      pending.push(raw('}'));
      for (let i = entries.length - 1; i >= 0; i--)
        pending.push(entries[i][1], raw(`${i > 0 ? ',' : ''}${JSON.stringify(entries[i][0])}:`));
      pending.push(raw('{'));
    } else out.push(item === undefined ? 'null' : JSON.stringify(item));
  }
  return escapeSeparators(out.join(''));
}

/**
 * JSON leaves U+2028/U+2029 raw inside strings, and json5 then warns on the console at every parse. They
 * only ever occur inside strings in JSON text, so escaping them everywhere is safe.
 */
export function escapeSeparators(jsonish: string): string {
  return jsonish.replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}
const RAW = Symbol('raw');
const raw = (text: string) => ({ raw: text, [RAW]: true });

const syntaxChar = fc.constantFrom('{', '}', '[', ']', ':', ',', '"', "'", 'a', '1', '-', '.', '/', '*', '\n', ' ', '$', '\\', 'e', '_');

/** Texts the loader must survive: arbitrary strings, JSON5-ish token soup, and damaged renderings of valid configs. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: syntaxChar, maxLength: 200 }),
  fc
    .tuple(
      validConfig,
      fc.array(fc.tuple(fc.nat(), fc.nat({ max: 8 }), fc.string({ unit: syntaxChar, maxLength: 4 })), { minLength: 1, maxLength: 3 }),
    )
    .map(([doc, cuts]) => {
      let t = escapeSeparators(JSON.stringify(doc, null, 2));
      for (const [at, len, insert] of cuts) {
        const i = at % (t.length + 1);
        t = t.slice(0, i) + insert + t.slice(i + len);
      }
      return t;
    }),
);
