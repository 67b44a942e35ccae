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
      });
    });

    it('requires api and baseUrl for a provider that is not built in', () => {
      expect(messages(normalize({ models: { providers: { mine: { baseUrl: 'http://x' } } } }).errors)).toEqual([
        'models.providers.mine.api: is required for a provider that is not built in (openai-chat or anthropic-messages)',
      ]);
      expect(messages(normalize({ models: { providers: { mine: { api: 'openai-chat' } } } }).errors)).toEqual([
        'models.providers.mine.baseUrl: is required for a provider that is not built in',
      ]);
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
});
