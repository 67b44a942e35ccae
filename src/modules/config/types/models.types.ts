/** `models` and `agents.defaults.models`: the providers, and the model catalog of the agents. */
export interface ModelsSettings {
  mode: 'merge' | 'replace';
  providers: Record<string, ModelProviderSettings>;
  /** alias → `provider/model` (agents.defaults.models[ref].alias). */
  aliases: Record<string, string>;
  /**
   * The keys of agents.defaults.models (`provider/model` or `provider/*`): OpenClaw's allowlist for models picked at
   * run time (`/model`, session overrides). Empty: no list. Configured models and fallbacks are never filtered by it.
   */
  allowed: string[];
}

/** A protocol clawgate speaks to a model provider. */
export type ModelApi = 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'echo';

/** A model of a provider's catalog (`models.providers.<name>.models[]`), kept for limits and usage pricing. */
export interface ProviderModelSettings {
  id: string;
  name?: string;
  /** This model's protocol when the entry sets one (mapped like the provider's). */
  api?: ModelApi | 'unsupported';
  apiAsWritten?: string;
  reasoning?: boolean;
  input?: string[];
  /** Per million tokens. */
  cost?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };
  contextWindow?: number;
  contextTokens?: number;
  maxTokens?: number;
}

export interface ModelProviderSettings {
  name: string;
  /**
   * The protocol clawgate speaks to it. `unsupported`: the file names an OpenClaw kind clawgate does not speak
   * (`apiAsWritten`); a run whose model is on it goes on to its fallbacks. `plugin`: a model API an enabled plugin
   * declares in its manifest's `contracts.providers` (the provider's name is its id); called while that plugin is active.
   */
  api: ModelApi | 'unsupported' | 'plugin';
  /** `api` as the file writes it, when that is an OpenClaw kind (`openai-completions`, `ollama`, `google-generative-ai`, …). */
  apiAsWritten?: string;
  baseUrl?: string;
  /**
   * Why the provider cannot be called (its `${VAR}` baseUrl is no URL; names the variable, never its value): a run on
   * it goes on to its fallbacks.
   */
  unusable?: string;
  apiKey?: string;
  /** Env var consulted when apiKey is unset (built-in providers). */
  apiKeyEnv?: string;
  requiresKey: boolean;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Stream when the run's caller takes deltas (docs/runtime.md#streamed-replies). */
  stream: boolean;
  /** Echo only: pause between streamed words. */
  streamDelayMs: number;
  models: ProviderModelSettings[];
}
