import * as path from 'node:path';
import { QUOTE_LITERALLY } from '../pipeline/config-value-quoter';
import type { ConfigIssue } from '../pipeline/config-issue';
import { validateConfig } from '../pipeline/validate-config';
import { normalizeConfig } from './normalize-config';

type Endpoint = 'chatCompletions' | 'mcp';

/** validate → normalize, as loadConfig chains them; `gateway.http.endpoints.<endpoint>` is the input. */
function loadEndpoint(endpoint: Endpoint, settings: unknown) {
  const doc = { agents: { list: [{ id: 'main' }, { id: 'support' }] }, gateway: { http: { endpoints: { [endpoint]: settings } } } };
  const validated = validateConfig(doc);
  if (!validated.config) return { errors: validated.errors, warnings: [] as ConfigIssue[], settings: undefined };
  const ctx = {
    configPath: path.resolve('/etc/clawgate/openclaw.json'),
    stateDir: path.resolve('/var/lib/clawgate'),
    homeDir: path.resolve('/home/ada'),
    env: {},
    unusableSecretPaths: new Set<string>(),
    quoter: QUOTE_LITERALLY,
    errors: [] as ConfigIssue[],
    warnings: [] as ConfigIssue[],
  };
  const config = normalizeConfig(ctx, validated.config);
  return { errors: ctx.errors, warnings: ctx.warnings, settings: config.gateway.http.endpoints[endpoint] };
}
const messages = (issues: ConfigIssue[]) => issues.map((i) => `${i.path}: ${i.message}`);

// The OpenAI-compatible endpoint and the MCP server share the key model: the same rules, each at its own path.
describe.each<Endpoint>(['chatCompletions', 'mcp'])('gateway.http.endpoints.%s', (endpoint) => {
  const AT = `gateway.http.endpoints.${endpoint}`;
  const load = (settings: unknown) => loadEndpoint(endpoint, settings);

  it('is off with no keys by default', () => {
    expect(load(undefined).settings).toEqual({ enabled: false, rateLimitPerMinute: 60, keys: [] });
  });

  it('normalizes keys: patterns trimmed, usable when the token is set', () => {
    const { settings, errors, warnings } = load({
      enabled: true,
      rateLimitPerMinute: 0,
      keys: [{ name: 'desk', token: 'tok-desk-123456789', agents: [' support ', 'exp*'] }],
    });
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
    expect(settings).toEqual({
      enabled: true,
      rateLimitPerMinute: 0,
      keys: [{ name: 'desk', token: 'tok-desk-123456789', agents: ['support', 'exp*'], usable: true }],
    });
  });

  it('warns about a plain id that names no agent (patterns may match agents added later)', () => {
    const { warnings } = load({ keys: [{ name: 'k', token: 'tok-k-123456789', agents: ['suport', 'x*'] }] });
    expect(messages(warnings)).toEqual([`${AT}.keys[0].agents[0]: no agent "suport" is configured; this entry reaches nothing`]);
  });

  it('refuses a repeated name and a shared token', () => {
    const { errors } = load({
      keys: [
        { name: 'a', token: 'same-token-123456', agents: ['*'] },
        { name: 'a', token: 'other-token-123456', agents: ['*'] },
        { name: 'b', token: 'same-token-123456', agents: ['*'] },
      ],
    });
    expect(messages(errors)).toEqual([
      `${AT}.keys[1].name: "a" is used by an earlier key; names must be unique`,
      `${AT}.keys[2].token: is the same as the token of key "a"; every key needs its own token`,
    ]);
  });

  it.each<[string, unknown, string]>([
    ['enabled not a boolean', { enabled: 'yes' }, `${AT}.enabled: must be a boolean value (got "yes")`],
    ['a negative rate limit', { rateLimitPerMinute: -1 }, `${AT}.rateLimitPerMinute: must not be less than 0 (got -1)`],
    ['keys not an array', { keys: {} }, `${AT}.keys: must be an array`],
    ['a key without agents', { keys: [{ name: 'k', token: 'tok-k-123456789' }] }, `${AT}.keys[0].agents: is required`],
    ['a key with no agent', { keys: [{ name: 'k', token: 'tok-k-123456789', agents: [] }] }, `${AT}.keys[0].agents: must name at least one agent or pattern ("*" for every agent)`],
    ['a key without a token', { keys: [{ name: 'k', agents: ['*'] }] }, `${AT}.keys[0].token: is required`],
    ['a bad key name', { keys: [{ name: 'Desk Key', token: 'tok-k-123456789', agents: ['*'] }] }, `${AT}.keys[0].name: must match ^[a-z0-9][a-z0-9._-]{0,63}$`],
    ['an unknown field', { keys: [{ name: 'k', token: 'tok-k-123456789', agents: ['*'], role: 'admin' }] }, `${AT}.keys[0].role: unknown key`],
  ])('rejects %s, naming the key', (_what, input, message) => {
    const { errors } = load(input);
    expect(messages(errors)).toContainEqual(expect.stringContaining(message));
  });
});
