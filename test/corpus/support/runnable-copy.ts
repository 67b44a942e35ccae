import * as path from 'node:path';
import { modelByAlias } from './openclaw-rules';

/** What stands in for the model APIs: the fakes' addresses. */
export interface ModelFakes {
  /** The fake OpenAI server's `/v1` base (what an `openai-completions` baseUrl points at). */
  openAiBaseUrl: string;
  /** The fake OpenAI server's origin (OpenClaw's `ollama` baseUrl has no `/v1`). */
  openAiOrigin: string;
  /** The fake Anthropic server's origin. */
  anthropicOrigin: string;
  /** The fake Responses API server's `/v1` base (what an `openai-responses` baseUrl points at). */
  responsesBaseUrl: string;
}

export interface RunnableCopy {
  doc: Record<string, any>;
  /** Variables the gateway needs besides the file's placeholders (keys of built-in providers). */
  env: Record<string, string>;
  /** Bearer token of the http channel account added to send the message. */
  httpToken: string;
  /** Admin token added to read the admin API whatever gateway.auth the file has. */
  adminToken: string;
  /** What was changed, one line each, for the failure messages. */
  changes: string[];
  /** The providers now answered by a fake. */
  faked: Set<string>;
}

/**
 * OpenClaw's built-in providers whose API clawgate speaks, and which: a file that names `openrouter/x` without
 * defining models.providers.openrouter uses OpenClaw's built-in endpoint, which this test stands in for with the fake
 * of that API. Providers on an API clawgate does not speak (google, openai-codex, github-copilot, …) are left as
 * written: their runs go on to the fallbacks.
 */
const STAND_INS: Readonly<Record<string, 'openai-completions' | 'anthropic-messages' | 'ollama'>> = {
  anthropic: 'anthropic-messages',
  minimax: 'anthropic-messages',
  openai: 'openai-completions',
  ollama: 'ollama',
  openrouter: 'openai-completions',
  deepseek: 'openai-completions',
  groq: 'openai-completions',
  mistral: 'openai-completions',
  xai: 'openai-completions',
  together: 'openai-completions',
  cerebras: 'openai-completions',
  moonshot: 'openai-completions',
  zai: 'openai-completions',
  litellm: 'openai-completions',
  vllm: 'openai-completions',
  lmstudio: 'openai-completions',
  fireworks: 'openai-completions',
  deepinfra: 'openai-completions',
  nvidia: 'openai-completions',
  venice: 'openai-completions',
};
/** Keys of clawgate's built-in providers, read from the environment. */
const BUILT_IN_KEY_ENV: Readonly<Record<string, string>> = { anthropic: 'ANTHROPIC_API_KEY', openai: 'OPENAI_API_KEY' };
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every `provider/model` the agents name (primary and fallbacks, in agents.defaults, agents.list and agents.entries). */
export function agentModelRefs(doc: Record<string, any>): string[] {
  const refs: string[] = [];
  const add = (model: unknown) => {
    if (typeof model === 'string') refs.push(model);
    else if (isObject(model)) {
      if (typeof model.primary === 'string') refs.push(model.primary);
      if (Array.isArray(model.fallbacks)) refs.push(...model.fallbacks.filter((f: unknown): f is string => typeof f === 'string'));
    }
  };
  const agents = isObject(doc.agents) ? doc.agents : {};
  if (isObject(agents.defaults)) add(agents.defaults.model);
  for (const a of Array.isArray(agents.list) ? agents.list : []) if (isObject(a)) add(a.model);
  for (const a of Object.values(isObject(agents.entries) ? agents.entries : {})) if (isObject(a)) add(a.model);
  return refs.map((r) => modelByAlias(doc, r)).filter((r) => r.includes('/'));
}

/**
 * A copy of an OpenClaw document changed only where it must be to run on this machine: model providers point at the
 * fakes, an http channel account and an admin token are added (the way in for the test's message and its admin
 * reads), absolute workspace and agent directories move under `root` (so nothing is created outside the test's temp
 * dir; `~` paths stay and expand to the fake HOME), and a custom bind host that is not this machine's becomes
 * loopback. Ports and the state dir are the command line's (`--port 0`, the fake HOME).
 */
export function runnableCopy(original: Record<string, any>, fakes: ModelFakes, root: string): RunnableCopy {
  const doc = structuredClone(original);
  const changes: string[] = [];
  const faked = new Set<string>();
  const env: Record<string, string> = {};
  const models = (doc.models = isObject(doc.models) ? doc.models : {});
  const providers = (models.providers = isObject(models.providers) ? models.providers : {});

  const baseUrlFor = (kind: string) =>
    kind === 'anthropic-messages'
      ? fakes.anthropicOrigin
      : kind === 'ollama'
        ? fakes.openAiOrigin
        : kind === 'openai-completions' || kind === 'openai-chat'
          ? fakes.openAiBaseUrl
          : kind === 'openai-responses'
            ? fakes.responsesBaseUrl
            : undefined;
  for (const [id, entry] of Object.entries(providers)) {
    if (!isObject(entry)) continue;
    const kind = typeof entry.api === 'string' ? entry.api : (STAND_INS[id] ?? 'openai-completions');
    const url = baseUrlFor(kind);
    if (!url) continue; // an API clawgate does not speak: left as written
    entry.baseUrl = url;
    faked.add(id);
    changes.push(`models.providers.${id}.baseUrl → fake ${kind}`);
    if (kind === 'anthropic-messages' && entry.apiKey === undefined) entry.apiKey = 'corpus-anthropic-key';
    if (BUILT_IN_KEY_ENV[id]) env[BUILT_IN_KEY_ENV[id]] = `corpus-${id}-key`;
  }
  for (const ref of agentModelRefs(doc)) {
    const id = ref.slice(0, ref.indexOf('/'));
    if (Object.hasOwn(providers, id) || !STAND_INS[id]) continue;
    const kind = STAND_INS[id];
    faked.add(id);
    providers[id] = { ...(BUILT_IN_KEY_ENV[id] ? {} : { api: kind }), baseUrl: baseUrlFor(kind) };
    if (BUILT_IN_KEY_ENV[id]) env[BUILT_IN_KEY_ENV[id]] = `corpus-${id}-key`;
    else if (kind === 'anthropic-messages') providers[id].apiKey = 'corpus-anthropic-key';
    changes.push(`models.providers.${id} added: OpenClaw's built-in ${id} as fake ${kind}`);
  }

  const httpToken = 'corpus-http-token-0123456789abcdef';
  const channels = (doc.channels = isObject(doc.channels) ? doc.channels : {});
  channels.http = { enabled: true, accounts: { corpus: { token: httpToken } } };
  changes.push('channels.http added (account corpus)');
  const adminToken = 'corpus-admin-token-0123456789abcdef';
  const gateway = (doc.gateway = isObject(doc.gateway) ? doc.gateway : {});
  const admin = (gateway.admin = isObject(gateway.admin) ? gateway.admin : {});
  admin.tokens = [...(Array.isArray(admin.tokens) ? admin.tokens : []), { name: 'corpus', token: adminToken, role: 'admin' }];
  changes.push('gateway.admin.tokens: corpus added');
  if (gateway.bind === 'custom' && typeof gateway.customBindHost === 'string' && !LOOPBACK.has(gateway.customBindHost)) {
    gateway.customBindHost = '127.0.0.1';
    changes.push('gateway.customBindHost → 127.0.0.1');
  }

  const agents = isObject(doc.agents) ? doc.agents : {};
  const entries = [
    ['agents.defaults', agents.defaults],
    ...(Array.isArray(agents.list) ? agents.list.map((a: unknown, i: number) => [`agents.list[${i}]`, a]) : []),
    ...Object.entries(isObject(agents.entries) ? agents.entries : {}).map(([id, a]) => [`agents.entries.${id}`, a]),
  ] as Array<[string, unknown]>;
  for (const [at, entry] of entries) {
    if (!isObject(entry)) continue;
    for (const key of ['workspace', 'agentDir']) {
      const value = entry[key];
      if (typeof value === 'string' && path.isAbsolute(value)) {
        entry[key] = path.join(root, value);
        changes.push(`${at}.${key} → under the test's root`);
      }
    }
  }
  return { doc, env, httpToken, adminToken, changes, faked };
}
