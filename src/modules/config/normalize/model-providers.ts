import { CONFIG_DEFAULTS } from '../config-defaults';
import type { ModelProviderSettings, ProviderModelSettings } from '../config.types';
import { MODEL_APIS, OPENCLAW_MODEL_APIS, type ModelProviderConfig, type ProviderModelConfig } from '../schema/models.schema';
import { suggestClosest } from '../../../common/text/did-you-mean';
import { OPENCLAW_PROVIDER_IDS } from '../openclaw/openclaw-providers';
import { isSecretRef } from '../schema/secret-input';
import { mapModelApi, ollamaOpenAiBaseUrl } from './model-apis';
import type { NormalizeContext } from './normalize-context';

const DEFAULT_MODEL_TIMEOUT_MS = CONFIG_DEFAULTS.each.modelProvider.timeoutMs;
const PROVIDER_DEFAULTS = CONFIG_DEFAULTS.each.modelProvider;

/** Providers usable without a `models.providers` entry (docs/configuration.md#built-in-model-providers). */
export const BUILT_IN_PROVIDERS: Readonly<
  Record<string, Omit<ModelProviderSettings, 'headers' | 'timeoutMs' | 'stream' | 'streamDelayMs' | 'models'>>
> = {
  echo: { name: 'echo', api: 'echo', requiresKey: false },
  anthropic: {
    name: 'anthropic',
    api: 'anthropic-messages',
    baseUrl: 'https://api.anthropic.com',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
    requiresKey: true,
  },
  openai: {
    name: 'openai',
    api: 'openai-chat',
    baseUrl: 'https://api.openai.com/v1',
    apiKeyEnv: 'OPENAI_API_KEY',
    requiresKey: true,
  },
  ollama: { name: 'ollama', api: 'openai-chat', baseUrl: 'http://127.0.0.1:11434/v1', requiresKey: false },
};

/** Ids a plugin's model provider may not take: the built-in providers' names and every `api` kind. */
export function isReservedModelProviderId(id: string): boolean {
  const apiKinds: readonly string[] = [...MODEL_APIS, ...OPENCLAW_MODEL_APIS];
  return Object.hasOwn(BUILT_IN_PROVIDERS, id) || apiKinds.includes(id);
}

/** The gateway's own offline model: kept by `models.mode: "replace"`, which drops only the catalog providers. */
const ALWAYS_BUILT_IN = 'echo';

/**
 * Built-in providers overlaid with `models.providers` entries (field by field). `mode: "replace"` keeps only the
 * entries (and echo), as OpenClaw's replace keeps only the configured catalog.
 */
export function normalizeModelProviders(
  ctx: NormalizeContext,
  configured: Map<string, ModelProviderConfig> | undefined,
  mode: 'merge' | 'replace' = CONFIG_DEFAULTS.models.mode,
  pluginProviders: ReadonlySet<string> = new Set(),
): Record<string, ModelProviderSettings> {
  const out: Record<string, ModelProviderSettings> = {};
  // A plugin's model API is a provider named by its id, as a built-in one is (a reserved id is refused at register).
  for (const id of pluginProviders) {
    if (isReservedModelProviderId(id)) continue;
    out[id] = {
      name: id,
      api: 'plugin',
      requiresKey: false,
      headers: { ...PROVIDER_DEFAULTS.headers },
      timeoutMs: DEFAULT_MODEL_TIMEOUT_MS,
      stream: PROVIDER_DEFAULTS.stream,
      streamDelayMs: PROVIDER_DEFAULTS.streamDelayMs,
      models: [],
    };
  }
  for (const [name, builtIn] of Object.entries(BUILT_IN_PROVIDERS)) {
    if (mode === 'replace' && name !== ALWAYS_BUILT_IN) continue;
    out[name] = {
      ...builtIn,
      headers: { ...PROVIDER_DEFAULTS.headers },
      timeoutMs: DEFAULT_MODEL_TIMEOUT_MS,
      stream: PROVIDER_DEFAULTS.stream,
      streamDelayMs: PROVIDER_DEFAULTS.streamDelayMs,
      models: [],
    };
  }
  for (const [name, entry] of configured ?? []) {
    const provider = normalizeProvider(ctx, name, entry, out[name]);
    if (provider) out[name] = provider;
  }
  return out;
}

function normalizeProvider(
  ctx: NormalizeContext,
  name: string,
  entry: ModelProviderConfig,
  base: ModelProviderSettings | undefined,
): ModelProviderSettings | undefined {
  const at = `models.providers.${name}`;
  // OpenClaw: a custom provider with a baseUrl and no api speaks openai-completions.
  const written = entry.api ?? (base ? undefined : entry.baseUrl ? 'openai-chat' : undefined);
  if (!written && !base) {
    ctx.errors.push({ path: `${at}.api`, message: 'is required for a provider that is not built in (openai-chat or anthropic-messages)' });
    return undefined;
  }
  const mapped = written ? mapModelApi(ctx, written, `${at}.api`, `provider ${name}`) : { api: base!.api, asWritten: base!.apiAsWritten };
  if (!mapped) return undefined;
  const { api } = mapped;
  const unusable = ctx.unusableProviders?.get(name);
  // Never the built-in provider's URL in place of the file's: the key would go to a server the file did not name.
  let baseUrl = unusable ? undefined : (entry.baseUrl ?? base?.baseUrl);
  if (!baseUrl && !unusable && api !== 'echo' && api !== 'unsupported' && api !== 'plugin') {
    ctx.errors.push({ path: `${at}.baseUrl`, message: `is required for a provider that is not built in` });
    return undefined;
  }
  if (baseUrl && mapped.asWritten === 'ollama') baseUrl = ollamaOpenAiBaseUrl(baseUrl);
  // A pause between streamed words is something only the offline echo model has; elsewhere the model sets the pace.
  if (entry.streamDelayMs !== undefined && api !== 'echo') {
    const uses = entry.api !== undefined ? ctx.quoter.quote(`${at}.api`, entry.api) : JSON.stringify(api);
    ctx.errors.push({ path: `${at}.streamDelayMs`, message: `applies only to api "echo" (this provider uses ${uses})` });
    return undefined;
  }
  return {
    name,
    api,
    ...(mapped.asWritten ? { apiAsWritten: mapped.asWritten } : {}),
    baseUrl,
    ...(unusable ? { unusable } : {}),
    apiKey: resolveApiKey(ctx, entry.apiKey, `${at}.apiKey`),
    apiKeyEnv: base?.apiKeyEnv,
    requiresKey: base ? base.requiresKey : api === 'anthropic-messages',
    headers: { ...(entry.headers ?? PROVIDER_DEFAULTS.headers) },
    timeoutMs: entry.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS,
    stream: entry.stream ?? PROVIDER_DEFAULTS.stream,
    streamDelayMs: entry.streamDelayMs ?? PROVIDER_DEFAULTS.streamDelayMs,
    models: (entry.models ?? []).flatMap((m, i) => normalizeProviderModel(ctx, m, `${at}.models[${i}]`, name) ?? []),
  };
}

/** A string key as it is (`${VAR}` already substituted), or the variable an env SecretRef names. */
function resolveApiKey(ctx: NormalizeContext, key: ModelProviderConfig['apiKey'], at: string): string | undefined {
  if (!isSecretRef(key)) return key;
  const value = ctx.env[key.id];
  if (!value) {
    // The variable's name, never a value: the reference is the document's, the value the environment's.
    ctx.warnings.push({ path: at, message: `SecretRef names environment variable ${key.id}, which is not set (runs on this provider fail until it is)` });
    return undefined;
  }
  return value;
}

function normalizeProviderModel(
  ctx: NormalizeContext,
  m: ProviderModelConfig,
  at: string,
  provider: string,
): ProviderModelSettings | undefined {
  const mapped = m.api === undefined ? undefined : mapModelApi(ctx, m.api, `${at}.api`, `model ${provider}/${m.id}`);
  if (m.api !== undefined && !mapped) return undefined;
  const model: ProviderModelSettings = { id: m.id };
  if (m.name !== undefined) model.name = m.name;
  if (mapped) {
    model.api = mapped.api;
    if (mapped.asWritten) model.apiAsWritten = mapped.asWritten;
  }
  if (m.reasoning !== undefined) model.reasoning = m.reasoning;
  if (m.input) model.input = [...m.input];
  if (m.cost) model.cost = { ...m.cost };
  if (m.contextWindow !== undefined) model.contextWindow = m.contextWindow;
  if (m.contextTokens !== undefined) model.contextTokens = m.contextTokens;
  if (m.maxTokens !== undefined) model.maxTokens = m.maxTokens;
  return model;
}

/**
 * Checks an agent's `provider/model` (written at `path`) against the providers. An undefined provider is an
 * error (with did-you-mean), unless OpenClaw knows it (built in there, or named by the file's auth profiles and
 * plugins): then a warning, and a run on it goes on to its fallbacks. Warns when a key is missing.
 */
export function checkModelRef(ctx: NormalizeContext, providers: Record<string, ModelProviderSettings>, model: string, path: string): void {
  const providerName = model.slice(0, model.indexOf('/'));
  // Own entries only: `constructor/x` must not find Object's constructor.
  const provider = Object.hasOwn(providers, providerName) ? providers[providerName] : undefined;
  if (!provider) {
    if (OPENCLAW_PROVIDER_IDS.has(providerName) || ctx.providersNamedElsewhere?.has(providerName)) {
      ctx.warnings.push({
        path,
        message: `model provider ${ctx.quoter.quote(path, providerName)} is OpenClaw's, not built into clawgate: define models.providers.${providerName} (api, baseUrl, apiKey) to use it; until then a run on it goes on to its fallbacks`,
      });
      return;
    }
    // Provider names are keys of the document (never substituted): the hint may show one as it is.
    const hint = suggestClosest(providerName, Object.keys(providers));
    ctx.errors.push({
      path,
      message: `unknown model provider ${ctx.quoter.quote(path, providerName)}${hint ? ` (did you mean "${hint}"?)` : ''}; built in: ${Object.keys(BUILT_IN_PROVIDERS).join(', ')}, or define it in models.providers`,
    });
    return;
  }
  if (provider.api === 'unsupported' || provider.unusable) return; // warned once, at the provider's api or baseUrl
  if (provider.requiresKey && !providerApiKey(provider, ctx.env)) {
    // providerName is now a provider's name (built in, or a key of models.providers), so it may be shown as is.
    const fromEnv = provider.apiKeyEnv ? `set ${provider.apiKeyEnv} or ` : '';
    ctx.warnings.push({
      path,
      message: `no API key for provider ${providerName}: ${fromEnv}models.providers.${providerName}.apiKey (runs with this model will fail until then)`,
    });
  }
}

/** The key a provider will use: config first, then its environment variable. */
export function providerApiKey(provider: ModelProviderSettings, env: NodeJS.ProcessEnv): string | undefined {
  return provider.apiKey || (provider.apiKeyEnv ? env[provider.apiKeyEnv] || undefined : undefined);
}
