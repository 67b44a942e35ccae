import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from './load-config';

/**
 * Every message of the pipeline that can quote a config value, fed a `${VAR}` whose value is a recognisable
 * secret: the message must name the variable and show the value nowhere, in no form (quoted, bare, part of
 * it, lowercased, cut short). One row per place that quotes a value; a new place that quotes one gets a row.
 * The rule itself is ConfigValueQuoter (config-value-quoter.ts).
 */

/** Every row's variable; its value is the row's secret. */
const VAR = 'SOME_VAR';
const SECRET = 'Zq7Secret';

interface Row {
  /** The message that quotes a value, as the code producing it would describe it. */
  site: string;
  /** Config text; `$V` stands for the `${SOME_VAR}` reference. */
  config: string;
  /** The variable's value; contains SECRET (in any case) so it can be looked for in every message. */
  value: string;
  /** What must appear in no message when the value cannot contain SECRET (an enum value, a reserved name). */
  secret?: string;
  /** The issue that must quote the value: an error or a warning at this path. */
  kind: 'error' | 'warning';
  path: string;
}

const HTTP_KEYS = (keys: string) => `{ gateway: { http: { endpoints: { chatCompletions: { enabled: true, keys: [${keys}] } } } } }`;

const ROWS: Row[] = [
  // Validation (validate-config.ts): the value that failed a check, `(got …)`.
  { site: 'a URL that is not one', config: '{ gateway: { publicUrl: "$V" } }', value: `not a url ${SECRET}`, kind: 'error', path: 'gateway.publicUrl' },
  {
    site: 'a long value, cut short in the message',
    config: '{ gateway: { publicUrl: "$V" } }',
    value: `${'x'.repeat(70)}${SECRET}`,
    kind: 'error',
    path: 'gateway.publicUrl',
  },
  { site: 'a string where a number belongs', config: '{ gateway: { port: "$V" } }', value: `80${SECRET}`, kind: 'error', path: 'gateway.port' },
  {
    site: 'a value outside an enum',
    config: '{ tools: { sessions: { visibility: "$V" } } }',
    value: SECRET,
    kind: 'error',
    path: 'tools.sessions.visibility',
  },
  {
    site: 'a model reference without provider/',
    config: '{ agents: { list: [{ id: "main", model: "$V" }] } }',
    value: SECRET,
    kind: 'error',
    path: 'agents.list[0].model',
  },
  // Validation: checks of each entry of a list (schema-decorators.ts, channels.schema.ts).
  {
    site: 'an entry that is not an IP address or CIDR block',
    config: '{ gateway: { trustedProxies: ["10.0.0.0/8", "$V"] } }',
    value: `${SECRET}.internal`,
    kind: 'error',
    path: 'gateway.trustedProxies',
  },
  {
    site: 'an entry that is not a media range',
    config: '{ channels: { a2a: { files: { mediaTypes: ["text/plain", "$V"] } } } }',
    value: `text ${SECRET}`,
    kind: 'error',
    path: 'channels.a2a.files.mediaTypes',
  },
  {
    site: 'an entry that is not a URL pattern',
    config: '{ channels: { a2a: { peers: { p: { token: "peer-token-0123456789", pushUrls: ["https://ok.example/*", "$V"] } } } } }',
    value: `ftp://${SECRET}.example/*`,
    kind: 'error',
    path: 'channels.a2a.peers.p.pushUrls',
  },
  {
    site: 'a Redis URL with another scheme',
    config: '{ gateway: { cluster: { redis: { url: "$V" } } } }',
    value: `${SECRET}://cache.internal:6379`,
    kind: 'error',
    path: 'gateway.cluster.redis.url',
  },
  {
    site: 'a Redis URL whose path is not a database number',
    config: '{ gateway: { cluster: { redis: { url: "$V" } } } }',
    value: `redis://cache.internal:6379/${SECRET}`,
    kind: 'error',
    path: 'gateway.cluster.redis.url',
  },
  // Normalization: agents (normalize-agents.ts).
  {
    site: 'an agent id that is a reserved name',
    config: '{ agents: { list: [{ id: "main" }, { id: "$V" }] } }',
    value: 'Constructor',
    secret: 'constructor',
    kind: 'error',
    path: 'agents.list[1].id',
  },
  {
    site: 'a duplicate agent id (after normalization)',
    config: `{ agents: { list: [{ id: "${SECRET.toLowerCase()}-twin" }, { id: "$V" }] } }`,
    value: `${SECRET}-Twin`,
    kind: 'error',
    path: 'agents.list[1].id',
  },
  {
    site: 'several agents flagged default',
    config: '{ agents: { list: [{ id: "main", default: true }, { id: "$V", default: true }] } }',
    value: `${SECRET}-agent`,
    kind: 'warning',
    path: 'agents',
  },
  {
    site: 'a memory collection outside the workspace without a name',
    config: '{ agents: { list: [{ id: "main", memorySearch: { qmd: { extraCollections: [{ path: "$V" }] } } }] } }',
    value: `/srv/${SECRET}/notes`,
    kind: 'error',
    path: 'agents.list[0].memorySearch.qmd.extraCollections[0].name',
  },
  // Normalization: model references (model-providers.ts).
  {
    site: 'an unknown model provider (a part of the value)',
    config: '{ agents: { list: [{ id: "main", model: "$V/m" }] } }',
    value: `${SECRET}-provider`,
    kind: 'error',
    path: 'agents.list[0].model',
  },
  {
    site: 'an unknown model provider in agents.defaults',
    config: '{ agents: { defaults: { model: "$V" }, list: [{ id: "main" }] } }',
    value: `${SECRET}/model`,
    kind: 'error',
    path: 'agents.defaults.model',
  },
  {
    site: 'a provider api that does not stream with pauses',
    config: '{ models: { providers: { local: { api: "$V", baseUrl: "http://127.0.0.1:9/v1", streamDelayMs: 5 } } } }',
    value: 'anthropic-messages',
    secret: 'anthropic',
    kind: 'error',
    path: 'models.providers.local.streamDelayMs',
  },
  // Normalization: bindings, memory, channels (normalize-config.ts).
  {
    // Far from every agent's id: the binding goes to the default agent, with a warning.
    site: 'a binding to an unknown agent, routed to the default agent',
    config: '{ agents: { list: [{ id: "main" }] }, bindings: [{ agentId: "$V", match: { channel: "http" } }] }',
    value: `${SECRET}-agent`,
    kind: 'warning',
    path: 'bindings[0].agentId',
  },
  {
    // Close to an agent's id (a literal one letter short of the value): a typo, so an error with did-you-mean.
    site: 'a binding to a near miss of an agent',
    config: `{ agents: { list: [{ id: "main" }, { id: "${SECRET.toLowerCase().slice(0, -1)}" }] }, bindings: [{ agentId: "$V", match: { channel: "http" } }] }`,
    value: SECRET,
    kind: 'error',
    path: 'bindings[0].agentId',
  },
  {
    site: 'the did-you-mean hint of a binding to an unknown agent',
    config: `{ agents: { list: [{ id: "$V" }] }, bindings: [{ agentId: "${SECRET.toLowerCase()}-agen", match: { channel: "http" } }] }`,
    value: `${SECRET}-agent`,
    // The binding's own (literal) agentId is a near miss of the value: only the whole value must not show.
    secret: `${SECRET}-agent`,
    kind: 'error',
    path: 'bindings[0].agentId',
  },
  {
    site: 'a binding account that conflicts with accountId',
    config: '{ agents: { list: [{ id: "main" }] }, bindings: [{ agentId: "main", match: { channel: "http", account: "desk", accountId: "$V" } }] }',
    value: `${SECRET}-account`,
    kind: 'error',
    path: 'bindings[0].match.account',
  },
  {
    site: 'a binding to a channel without an adapter',
    config: '{ agents: { list: [{ id: "main" }] }, bindings: [{ agentId: "main", match: { channel: "$V" } }] }',
    value: `${SECRET}-channel`,
    kind: 'warning',
    path: 'bindings[0].match.channel',
  },
  {
    site: 'a memory path outside the workspaces without a name',
    config: '{ memory: { qmd: { paths: [{ path: "$V" }] } } }',
    value: `/srv/${SECRET}/notes`,
    kind: 'error',
    path: 'memory.qmd.paths[0].name',
  },
  {
    site: 'an unknown agent in exposeAgents (normalized to lowercase)',
    config: '{ agents: { list: [{ id: "main" }] }, channels: { a2a: { exposeAgents: ["main", "$V"] } } }',
    value: `${SECRET}-Agent`,
    kind: 'warning',
    path: 'channels.a2a.exposeAgents[1]',
  },
  {
    site: 'tools this gateway does not provide',
    config: '{ agents: { defaults: { tools: { allow: ["sessions_list", "$V"] } } } }',
    value: `${SECRET}_tool`,
    kind: 'warning',
    path: 'agents.defaults.tools.allow',
  },
  // Normalization: keys of the OpenAI-compatible endpoint (normalize-gateway-http.ts).
  {
    site: 'a key name used twice',
    config: HTTP_KEYS('{ name: "$V", token: "tok-a-0123456789", agents: ["*"] }, { name: "$V", token: "tok-b-0123456789", agents: ["*"] }'),
    value: `${SECRET.toLowerCase()}-key`,
    kind: 'error',
    path: 'gateway.http.endpoints.chatCompletions.keys[1].name',
  },
  {
    site: 'a key whose token another key has (names the first key)',
    config: HTTP_KEYS('{ name: "$V", token: "tok-same-0123456789", agents: ["*"] }, { name: "two", token: "tok-same-0123456789", agents: ["*"] }'),
    value: `${SECRET.toLowerCase()}-key`,
    kind: 'error',
    path: 'gateway.http.endpoints.chatCompletions.keys[1].token',
  },
  {
    site: 'a key naming an agent that is not configured',
    config: HTTP_KEYS('{ name: "one", token: "tok-a-0123456789", agents: ["$V"] }'),
    value: `${SECRET}-agent`,
    kind: 'warning',
    path: 'gateway.http.endpoints.chatCompletions.keys[0].agents[0]',
  },
];

describe('a value from ${VAR} in config messages', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-var-values-'));
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it.each(ROWS.map((row) => [row.site, row] as const))('%s: names the variable, never shows the value', async (_site, row) => {
    const result = await loadConfig({
      configPath: path.join(dir, 'openclaw.json'),
      stateDir: path.join(dir, 'state'),
      homeDir: dir,
      env: { [VAR]: row.value },
      rootText: row.config.split('$V').join(`\${${VAR}}`),
    });
    const issues = row.kind === 'error' ? (result.ok ? [] : result.errors) : result.warnings;
    const issue = issues.find((i) => i.path === row.path);
    // The row must reach its message (or it would prove nothing), and that message names the variable.
    expect(issue?.message).toContain(`\${${VAR}}`);
    const everything = JSON.stringify(result.ok ? result.warnings : [result.errors, result.warnings]);
    expect(everything.toLowerCase()).not.toContain((row.secret ?? SECRET).toLowerCase());
  });
});
