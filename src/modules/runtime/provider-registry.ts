import { Inject, Injectable, Optional } from '@nestjs/common';
import { providerApiKey, type ModelProviderSettings, type ProviderModelSettings, type RuntimeSnapshot } from '../config';
import { MODEL_PROVIDERS, ModelProvider, ModelProviderError } from './model-provider.port';
import { EchoProvider } from './providers/echo.provider';

export interface ResolvedModel {
  provider: ModelProvider;
  /** Settings with the API key filled in from the environment when the config has none. */
  settings: ModelProviderSettings;
  /** The part after `provider/`. */
  model: string;
  /** `provider/model`. */
  ref: string;
  /** The model's entry of the provider's catalog (models.providers.<name>.models), if it has one. */
  entry?: ProviderModelSettings;
}

/** Maps an agent's `provider/model` to a provider implementation and its settings from the snapshot. */
@Injectable()
export class ProviderRegistry {
  private readonly byApi = new Map<string, ModelProvider>();
  /** Plugins' model APIs by provider id (api `plugin`), there while their plugin is active. */
  private readonly byPlugin = new Map<string, ModelProvider>();

  constructor(@Optional() @Inject(MODEL_PROVIDERS) providers: ModelProvider[] | null) {
    for (const p of [new EchoProvider(), ...(providers ?? [])]) this.byApi.set(p.api, p);
  }

  /** A plugin's model API under its id (the plugin host checks the id is the plugin's to take). */
  registerPluginProvider(id: string, provider: ModelProvider): void {
    this.byPlugin.set(id, provider);
  }

  unregisterPluginProvider(id: string): void {
    this.byPlugin.delete(id);
  }

  hasPluginProvider(id: string): boolean {
    return this.byPlugin.has(id);
  }

  /** Throws ModelProviderError naming the provider and the setting to fix. */
  resolve(snapshot: RuntimeSnapshot, modelRef: string, env: NodeJS.ProcessEnv): ResolvedModel {
    const slash = modelRef.indexOf('/');
    const providerName = slash > 0 ? modelRef.slice(0, slash) : modelRef;
    const model = slash > 0 ? modelRef.slice(slash + 1) : 'default';
    const settings = snapshot.config.models.providers[providerName];
    if (!settings) {
      throw new ModelProviderError(`unknown model provider "${providerName}": define models.providers.${providerName}`);
    }
    if (settings.unusable) throw new ModelProviderError(settings.unusable);
    const apiKey = providerApiKey(settings, env);
    if (settings.requiresKey && !apiKey) {
      const fromEnv = settings.apiKeyEnv ? `set ${settings.apiKeyEnv} or ` : 'set ';
      throw new ModelProviderError(`no API key for provider ${providerName}: ${fromEnv}models.providers.${providerName}.apiKey`);
    }
    // A model of the provider's catalog may speak another protocol than the provider (models[].api).
    const entry = settings.models.find((m) => m.id === model);
    const api = entry?.api ?? settings.api;
    const apiAsWritten = entry?.api ? entry.apiAsWritten : settings.apiAsWritten;
    if (api === 'plugin') {
      const pluginProvider = this.byPlugin.get(providerName);
      if (!pluginProvider) {
        throw new ModelProviderError(
          `model provider ${providerName} is a plugin's, and no active plugin registers it (see GET /admin/plugins)`,
        );
      }
      return { provider: pluginProvider, settings: { ...settings, apiKey }, model, ref: `${providerName}/${model}`, entry };
    }
    const provider = api === 'unsupported' ? undefined : this.byApi.get(api);
    if (!provider) {
      const where = entry?.api ? `models.providers.${providerName}.models (${model}).api` : `models.providers.${providerName}.api`;
      throw new ModelProviderError(
        `model provider ${providerName} uses api "${apiAsWritten ?? api}", which clawgate does not speak (${where}: openai-chat, openai-completions, ollama, openai-responses, anthropic-messages)`,
      );
    }
    return { provider, settings: { ...settings, api: provider.api, apiKey }, model, ref: `${providerName}/${model}`, entry };
  }
}
