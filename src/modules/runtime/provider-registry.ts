import { Inject, Injectable, Optional } from '@nestjs/common';
import { providerApiKey, type ModelProviderSettings, type RuntimeSnapshot } from '../config';
import { MODEL_PROVIDERS, ModelProvider, ModelProviderError } from './model-provider.port';
import { EchoProvider } from './providers/echo.provider';

export interface ResolvedModel {
  provider: ModelProvider;
  /** Settings with the API key filled in from the environment when the config has none. */
  settings: ModelProviderSettings;
  model: string;
}

/** Maps an agent's `provider/model` to a provider implementation and its settings from the snapshot. */
@Injectable()
export class ProviderRegistry {
  private readonly byApi = new Map<string, ModelProvider>();

  constructor(@Optional() @Inject(MODEL_PROVIDERS) providers: ModelProvider[] | null) {
    for (const p of [new EchoProvider(), ...(providers ?? [])]) this.byApi.set(p.api, p);
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
    const apiKey = providerApiKey(settings, env);
    if (settings.requiresKey && !apiKey) {
      const fromEnv = settings.apiKeyEnv ? `set ${settings.apiKeyEnv} or ` : 'set ';
      throw new ModelProviderError(`no API key for provider ${providerName}: ${fromEnv}models.providers.${providerName}.apiKey`);
    }
    const provider = this.byApi.get(settings.api);
    if (!provider) {
      throw new ModelProviderError(`model provider ${providerName} uses api "${settings.api}", which this gateway cannot call yet`);
    }
    return { provider, settings: { ...settings, apiKey }, model };
  }
}
