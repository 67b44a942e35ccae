import * as path from 'node:path';
import { QUOTE_LITERALLY } from '../pipeline/config-value-quoter';
import type { ConfigIssue } from '../pipeline/config-issue';
import { validateConfig } from '../pipeline/validate-config';
import { BUILT_IN_PROVIDERS, checkModelRef, normalizeModelProviders, providerApiKey } from './model-providers';
import type { NormalizeContext } from './normalize-context';
import { normalizeConfig } from './normalize-config';

function context(env: NodeJS.ProcessEnv = {}): NormalizeContext {
  return {
    configPath: path.resolve('/etc/clawgate/openclaw.json'),
    stateDir: path.resolve('/var/lib/clawgate'),
    homeDir: path.resolve('/home/ada'),
    env,
    unusableSecretPaths: new Set(),
    quoter: QUOTE_LITERALLY,
    errors: [],
    warnings: [],
  };
}

/** validate → normalize, the way loadConfig chains them. */
function normalize(doc: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) {
  const validated = validateConfig(doc);
  if (!validated.config) throw new Error(`fixture is invalid: ${JSON.stringify(validated.errors)}`);
  const ctx = context(env);
  const config = normalizeConfig(ctx, validated.config);
  return { config, errors: ctx.errors, warnings: ctx.warnings };
}
const messages = (issues: ConfigIssue[]) => issues.map((i) => `${i.path}: ${i.message}`);
const MISSING_ANTHROPIC = 'no API key for provider anthropic: set ANTHROPIC_API_KEY or models.providers.anthropic.apiKey';

describe('model providers', () => {
  it('has the four built-in providers without any models section', () => {
    const { config } = normalize({});
    const p = config.models.providers;
    expect(Object.keys(p).sort()).toEqual(['anthropic', 'echo', 'ollama', 'openai']);
    expect(p.echo).toEqual(expect.objectContaining({ api: 'echo', requiresKey: false }));
    expect(p.anthropic).toEqual(expect.objectContaining({ api: 'anthropic-messages', apiKeyEnv: 'ANTHROPIC_API_KEY', requiresKey: true }));
    expect(p.openai).toEqual(expect.objectContaining({ api: 'openai-chat', apiKeyEnv: 'OPENAI_API_KEY', requiresKey: true }));
    expect(p.ollama).toEqual(expect.objectContaining({ api: 'openai-chat', baseUrl: 'http://127.0.0.1:11434/v1', requiresKey: false }));
  });

  describe('missing API keys', () => {
    it('warns (never fails) with the documented text when an agent uses anthropic without a key', () => {
      const { errors, warnings } = normalize({ agents: { list: [{ id: 'a', model: 'anthropic/claude-sonnet-4-6' }] } });
      expect(errors).toEqual([]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0].path).toBe('agents.list[0].model');
      expect(warnings[0].message.startsWith(MISSING_ANTHROPIC)).toBe(true);
    });

    it('names OPENAI_API_KEY for openai', () => {
      const { warnings } = normalize({ agents: { defaults: { model: 'openai/gpt-4o' } } });
      expect(messages(warnings)).toEqual([
        expect.stringMatching(
          /^agents\.defaults\.model: no API key for provider openai: set OPENAI_API_KEY or models\.providers\.openai\.apiKey/,
        ),
      ]);
    });

    it('is quiet when the key comes from the environment or from models.providers.<name>.apiKey', () => {
      const agents = { list: [{ id: 'a', model: 'anthropic/claude-opus-4-6' }] };
      expect(normalize({ agents }, { ANTHROPIC_API_KEY: 'sk-ant' }).warnings).toEqual([]);
      expect(normalize({ agents, models: { providers: { anthropic: { apiKey: 'sk-cfg' } } } }).warnings).toEqual([]);
      // An empty variable is no key (a `KEY=` line in an env file).
      expect(normalize({ agents }, { ANTHROPIC_API_KEY: '' }).warnings).toHaveLength(1);
    });

    it('needs no key for echo and ollama', () => {
      const { warnings, errors } = normalize({
        agents: {
          list: [
            { id: 'a', model: 'echo/x' },
            { id: 'b', model: 'ollama/qwen3:8b' },
          ],
        },
      });
      expect([...errors, ...warnings]).toEqual([]);
    });
  });

  describe('unknown providers', () => {
    it('is an error naming the path, a close match and the built-in names', () => {
      const { errors } = normalize({ agents: { list: [{ id: 'a', model: 'anthropc/claude' }] } });
      expect(messages(errors)).toEqual([
        'agents.list[0].model: unknown model provider "anthropc" (did you mean "anthropic"?); built in: echo, anthropic, openai, ollama, or define it in models.providers',
      ]);
    });

    it('accepts a provider defined in models.providers', () => {
      const { errors, config } = normalize({
        models: { providers: { vllm: { api: 'openai-chat', baseUrl: 'http://gpu:8000/v1', headers: { 'X-Team': 'a' } } } },
        agents: { list: [{ id: 'a', model: 'vllm/qwen' }] },
      });
      expect(errors).toEqual([]);
      expect(config.models.providers.vllm).toEqual({
        name: 'vllm',
        api: 'openai-chat',
        baseUrl: 'http://gpu:8000/v1',
        apiKey: undefined,
        apiKeyEnv: undefined,
        requiresKey: false,
        headers: { 'X-Team': 'a' },
        timeoutMs: 120000,
        stream: true,
        streamDelayMs: 0,
        models: [],
      });
    });

    it('requires a baseUrl for a provider that is not built in; without api it speaks openai-chat (OpenClaw: openai-completions)', () => {
      expect(messages(normalize({ models: { providers: { mine: {} } } }).errors)).toEqual([
        'models.providers.mine.api: is required for a provider that is not built in (openai-chat or anthropic-messages)',
      ]);
      expect(messages(normalize({ models: { providers: { mine: { api: 'openai-chat' } } } }).errors)).toEqual([
        'models.providers.mine.baseUrl: is required for a provider that is not built in',
      ]);
      const { config, errors } = normalize({ models: { providers: { mine: { baseUrl: 'http://x/v1' } } } });
      expect(errors).toEqual([]);
      expect(config.models.providers.mine).toMatchObject({ api: 'openai-chat', baseUrl: 'http://x/v1' });
    });

    it('takes stream and streamDelayMs, and refuses a delay on a provider that is not echo', () => {
      const { config, errors } = normalize({
        models: { providers: { echo: { streamDelayMs: 150 }, local: { api: 'openai-chat', baseUrl: 'http://x/v1', stream: false } } },
      });
      expect(errors).toEqual([]);
      expect(config.models.providers.echo).toMatchObject({ stream: true, streamDelayMs: 150 });
      expect(config.models.providers.local).toMatchObject({ stream: false, streamDelayMs: 0 });
      expect(messages(normalize({ models: { providers: { openai: { streamDelayMs: 10 } } } }).errors)).toEqual([
        'models.providers.openai.streamDelayMs: applies only to api "echo" (this provider uses "openai-chat")',
      ]);
    });

    it.each([
      [{ stream: 'yes' }, 'models.providers.echo.stream: must be a boolean value (got "yes")'],
      [{ streamDelayMs: -1 }, 'models.providers.echo.streamDelayMs: must not be less than 0 (got -1)'],
      [{ streamDelayMs: 10_001 }, 'models.providers.echo.streamDelayMs: must not be greater than 10000 (got 10001)'],
      [{ streamDelayMs: 1.5 }, 'models.providers.echo.streamDelayMs: must be an integer number (got 1.5)'],
    ])('rejects %j with a message naming the key', (entry, message) => {
      const { errors } = validateConfig({ models: { providers: { echo: entry } } });
      expect(messages(errors)).toEqual([message]);
    });
  });

  it('overlays a built-in provider field by field: new baseUrl, same key variable', () => {
    const ctx = context();
    const { models } = validateConfig({
      models: { providers: { openai: { baseUrl: 'https://proxy.example/v1', timeoutMs: 5000 } } },
    }).config!;
    const providers = normalizeModelProviders(ctx, models?.providers);
    expect(providers.openai).toEqual(
      expect.objectContaining({
        api: 'openai-chat',
        baseUrl: 'https://proxy.example/v1',
        apiKeyEnv: 'OPENAI_API_KEY',
        requiresKey: true,
        timeoutMs: 5000,
      }),
    );
    // The built-in table itself is not modified by an override.
    expect(BUILT_IN_PROVIDERS.openai.baseUrl).toBe('https://api.openai.com/v1');
  });

  it('checkModelRef reports into the context it is given', () => {
    const ctx = context();
    const providers = normalizeModelProviders(ctx, undefined);
    checkModelRef(ctx, providers, 'nope/x', 'agents.defaults.model');
    expect(ctx.errors.map((e) => e.path)).toEqual(['agents.defaults.model']);
  });

  it('providerApiKey prefers the configured key over the environment', () => {
    const ctx = context();
    const anthropic = normalizeModelProviders(ctx, undefined).anthropic;
    expect(providerApiKey(anthropic, { ANTHROPIC_API_KEY: 'env' })).toBe('env');
    expect(providerApiKey({ ...anthropic, apiKey: 'cfg' }, { ANTHROPIC_API_KEY: 'env' })).toBe('cfg');
    expect(providerApiKey(anthropic, {})).toBeUndefined();
  });

  describe('OpenClaw provider settings', () => {
    it('maps the api kinds clawgate speaks: openai-completions and ollama (its /v1 endpoint) onto openai-chat', () => {
      const { config, errors, warnings } = normalize({
        models: {
          providers: {
            proxy: { api: 'openai-completions', baseUrl: 'http://litellm:4000/v1' },
            ollama: { api: 'ollama', baseUrl: 'http://gpu:11434' },
            local: { api: 'ollama', baseUrl: 'http://gpu:11434/v1/' },
            claude: { api: 'anthropic-messages', baseUrl: 'https://proxy.example', apiKey: 'sk-ant-cfg' },
          },
        },
      });
      expect([...errors, ...warnings]).toEqual([]);
      const p = config.models.providers;
      expect(p.proxy).toMatchObject({ api: 'openai-chat', apiAsWritten: 'openai-completions', baseUrl: 'http://litellm:4000/v1' });
      expect(p.ollama).toMatchObject({ api: 'openai-chat', apiAsWritten: 'ollama', baseUrl: 'http://gpu:11434/v1', requiresKey: false });
      expect(p.local).toMatchObject({ baseUrl: 'http://gpu:11434/v1' });
      expect(p.claude).toMatchObject({ api: 'anthropic-messages', requiresKey: true });
      expect(p.claude.apiAsWritten).toBeUndefined();
    });

    it('loads an OpenClaw kind clawgate does not speak with a warning naming it; an unknown kind is an error with did-you-mean', () => {
      const { config, errors, warnings } = normalize({
        models: { providers: { google: { api: 'google-generative-ai', baseUrl: 'https://generativelanguage.googleapis.com/v1beta' } } },
      });
      expect(errors).toEqual([]);
      expect(messages(warnings)).toEqual([
        'models.providers.google.api: OpenClaw api kind "google-generative-ai" is not supported by clawgate (it speaks openai-chat / openai-completions / ollama, openai-responses and anthropic-messages): provider google cannot be called, and a run whose model is on it goes on to its fallbacks',
      ]);
      expect(config.models.providers.google).toMatchObject({ api: 'unsupported', apiAsWritten: 'google-generative-ai' });

      const typo = normalize({ models: { providers: { mine: { api: 'openai-completion', baseUrl: 'http://x/v1' } } } });
      expect(messages(typo.errors)).toEqual([
        expect.stringMatching(/^models\.providers\.mine\.api: unknown api "openai-completion" \(did you mean "openai-completions"\?\); one of: /),
      ]);
    });

    it('reads apiKey from an env SecretRef, warns naming the variable when it is unset, and refuses other sources', () => {
      const doc = { models: { providers: { proxy: { baseUrl: 'http://x/v1', apiKey: { source: 'env', provider: 'default', id: 'PROXY_KEY' } } } } };
      expect(normalize(doc, { PROXY_KEY: 'sk-from-env-123' }).config.models.providers.proxy.apiKey).toBe('sk-from-env-123');
      const unset = normalize(doc);
      expect(unset.config.models.providers.proxy.apiKey).toBeUndefined();
      expect(messages(unset.warnings)).toEqual([
        'models.providers.proxy.apiKey: SecretRef names environment variable PROXY_KEY, which is not set (runs on this provider fail until it is)',
      ]);

      const refused = (apiKey: unknown) => messages(validateConfig({ models: { providers: { proxy: { baseUrl: 'http://x/v1', apiKey } } } }).errors);
      expect(refused({ source: 'file', provider: 'vault', id: '/providers/openai/apiKey' })).toEqual([
        'models.providers.proxy.apiKey: SecretRef source "file" needs OpenClaw\'s secret providers, which clawgate does not have: use { source: "env", id: "VAR" } or "${VAR}"',
      ]);
      expect(refused({ source: 'environment', id: 'PROXY_KEY' })).toEqual([
        'models.providers.proxy.apiKey: a SecretRef\'s source must be "env" (got "environment")',
      ]);
      expect(refused({ source: 'env', id: 'proxy-key' })).toEqual([
        'models.providers.proxy.apiKey: a SecretRef with source "env" needs id: the name of an environment variable ([A-Z][A-Z0-9_]*)',
      ]);
    });

    it('keeps the models of a provider, cost included', () => {
      const model = {
        id: 'llama-3.1-8b',
        name: 'Llama 3.1 8B',
        reasoning: false,
        input: ['text'],
        cost: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0 },
        contextWindow: 128000,
        maxTokens: 32000,
      };
      const { config, errors } = normalize({ models: { providers: { proxy: { baseUrl: 'http://x/v1', models: [model] } } } });
      expect(errors).toEqual([]);
      expect(config.models.providers.proxy.models).toEqual([model]);
    });

    it('mode "replace" keeps only models.providers (and echo); "merge", the default, keeps the built-in ones beside them', () => {
      const providers = { proxy: { baseUrl: 'http://x/v1' } };
      expect(Object.keys(normalize({ models: { providers } }).config.models.providers).sort()).toEqual([
        'anthropic',
        'echo',
        'ollama',
        'openai',
        'proxy',
      ]);
      const replaced = normalize({ models: { mode: 'replace', providers }, agents: { defaults: { model: 'openai/gpt-4o' } } });
      expect(Object.keys(replaced.config.models.providers).sort()).toEqual(['echo', 'proxy']);
      expect(replaced.errors).toEqual([]);
      expect(messages(replaced.warnings)).toEqual([expect.stringMatching(/^agents\.defaults\.model: model provider "openai" is OpenClaw's, not built into clawgate/)]);
    });

    it("a model on OpenClaw's own providers loads with a warning; an undefined name OpenClaw does not know stays an error", () => {
      const { errors, warnings } = normalize({
        agents: { defaults: { model: { primary: 'echo/x', fallbacks: ['openrouter/qwen/qwen3-coder', 'nope/x'] } } },
      });
      expect(messages(warnings)).toEqual([
        'agents.defaults.model.fallbacks[0]: model provider "openrouter" is OpenClaw\'s, not built into clawgate: define models.providers.openrouter (api, baseUrl, apiKey) to use it; until then a run on it goes on to its fallbacks',
      ]);
      expect(messages(errors)).toEqual([
        expect.stringMatching(/^agents\.defaults\.model\.fallbacks\[1\]: unknown model provider "nope"; built in: /),
      ]);
    });
  });

  describe('agent models', () => {
    it('resolves aliases of agents.defaults.models wherever a model reference is, and keeps the allowlist', () => {
      const { config, errors } = normalize({
        agents: {
          defaults: {
            model: { primary: 'fast', fallbacks: ['echo/slow', 'fast'] },
            models: { 'echo/fast': { alias: 'fast' }, 'echo/slow': {}, 'ollama/*': {} },
          },
          list: [{ id: 'a' }, { id: 'b', model: 'fast' }],
        },
      });
      expect(errors).toEqual([]);
      expect(config.agents.map((a) => [a.id, a.model, a.fallbacks])).toEqual([
        ['a', 'echo/fast', ['echo/slow']],
        ['b', 'echo/fast', ['echo/slow']],
      ]);
      expect(config.models.aliases).toEqual({ fast: 'echo/fast' });
      expect(config.models.allowed).toEqual(['echo/fast', 'echo/slow', 'ollama/*']);
    });

    it('refuses a fallback that names no provider and no alias, and a second use of an alias', () => {
      const noProvider = normalize({ agents: { defaults: { model: { primary: 'echo/x', fallbacks: ['gpt-4o'] } } } });
      expect(messages(noProvider.errors)).toEqual([
        'agents.defaults.model.fallbacks[0]: "gpt-4o" names no provider and is no alias: write "provider/model", or give it as alias in agents.defaults.models',
      ]);
      const twice = normalize({ agents: { defaults: { models: { 'echo/a': { alias: 'x' }, 'echo/b': { alias: 'x' } } } } });
      expect(messages(twice.errors)).toEqual(['agents.defaults.models.echo/b.alias: alias "x" is already the alias of echo/a']);
    });

    it.each([
      [{ primary: 'echo/x', fallback: ['echo/y'] }, 'unknown key "fallback" (the object form has primary and fallbacks)'],
      [{ fallbacks: ['echo/y'] }, 'primary is required in the object form'],
      [{ primary: 'echo/x', fallbacks: 'echo/y' }, 'fallbacks must be a list of "provider/model" references'],
      [{ primary: 'echo/x', fallbacks: ['echo/y', '/y'] }, 'fallbacks[1] must be "provider/model" (e.g. "echo/default") or an alias of agents.defaults.models'],
      [42, 'must be "provider/model" or { primary, fallbacks } (got 42)'],
    ])('refuses the model %j with a message naming what is wrong', (model, message) => {
      expect(messages(validateConfig({ agents: { defaults: { model } } }).errors)).toEqual([`agents.defaults.model: ${message}`]);
    });
  });
});
