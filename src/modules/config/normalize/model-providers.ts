import { CONFIG_DEFAULTS } from '../config-defaults';
import type { ModelProviderSettings } from '../config.types';
import type { ModelProviderConfig } from '../schema/models.schema';
import { suggestClosest } from '../../../common/text/did-you-mean';
import type { NormalizeContext } from './normalize-context';

const DEFAULT_MODEL_TIMEOUT_MS = CONFIG_DEFAULTS.each.modelProvider.timeoutMs;
const PROVIDER_DEFAULTS = CONFIG_DEFAULTS.each.modelProvider;

/** Providers usable without a `models.providers` entry (docs/configuration.md#built-in-model-providers). */
export const BUILT_IN_PROVIDERS: Readonly<
  Record<string, Omit<ModelProviderSettings, 'headers' | 'timeoutMs' | 'stream' | 'streamDelayMs'>>
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

/** Built-in providers overlaid with `models.providers` entries (field by field). */
export function normalizeModelProviders(
  ctx: NormalizeContext,
  configured: Map<string, ModelProviderConfig> | undefined,
): Record<string, ModelProviderSettings> {
  const out: Record<string, ModelProviderSettings> = {};
  for (const [name, builtIn] of Object.entries(BUILT_IN_PROVIDERS)) {
    out[name] = {
      ...builtIn,
      headers: { ...PROVIDER_DEFAULTS.headers },
      timeoutMs: DEFAULT_MODEL_TIMEOUT_MS,
      stream: PROVIDER_DEFAULTS.stream,
      streamDelayMs: PROVIDER_DEFAULTS.streamDelayMs,
    };
  }
  for (const [name, entry] of configured ?? []) {
    const base = out[name];
    const api = entry.api ?? base?.api;
    const at = `models.providers.${name}`;
    if (!api) {
      ctx.errors.push({
        path: `${at}.api`,
        message: 'is required for a provider that is not built in (openai-chat or anthropic-messages)',
      });
      continue;
    }
    const baseUrl = entry.baseUrl ?? base?.baseUrl;
    if (!baseUrl && api !== 'echo') {
      ctx.errors.push({ path: `${at}.baseUrl`, message: `is required for a provider that is not built in` });
      continue;
    }
    // A pause between streamed words is something only the offline echo model has; elsewhere the model sets the pace.
    if (entry.streamDelayMs !== undefined && api !== 'echo') {
      const uses = entry.api !== undefined ? ctx.quoter.quote(`${at}.api`, api) : JSON.stringify(api);
      ctx.errors.push({ path: `${at}.streamDelayMs`, message: `applies only to api "echo" (this provider uses ${uses})` });
      continue;
    }
    out[name] = {
      name,
      api,
      baseUrl,
      apiKey: entry.apiKey,
      apiKeyEnv: base?.apiKeyEnv,
      requiresKey: base ? base.requiresKey : api === 'anthropic-messages',
      headers: { ...(entry.headers ?? PROVIDER_DEFAULTS.headers) },
      timeoutMs: entry.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS,
      stream: entry.stream ?? PROVIDER_DEFAULTS.stream,
      streamDelayMs: entry.streamDelayMs ?? PROVIDER_DEFAULTS.streamDelayMs,
    };
  }
  return out;
}

/** Checks an agent's `provider/model` (written at `path`) against the providers; warns when a key is missing. */
export function checkModelRef(ctx: NormalizeContext, providers: Record<string, ModelProviderSettings>, model: string, path: string): void {
  const providerName = model.slice(0, model.indexOf('/'));
  // Own entries only: `constructor/x` must not find Object's constructor.
  const provider = Object.hasOwn(providers, providerName) ? providers[providerName] : undefined;
  if (!provider) {
    // Provider names are keys of the document (never substituted): the hint may show one as it is.
    const hint = suggestClosest(providerName, Object.keys(providers));
    ctx.errors.push({
      path,
      message: `unknown model provider ${ctx.quoter.quote(path, providerName)}${hint ? ` (did you mean "${hint}"?)` : ''}; built in: ${Object.keys(BUILT_IN_PROVIDERS).join(', ')}, or define it in models.providers`,
    });
    return;
  }
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
