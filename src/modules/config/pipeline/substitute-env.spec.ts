import { isSecretConfigPath } from '../../../common/secrets/secret-paths';
import { substituteEnv } from './substitute-env';

const env = { HOST: 'claw.example', PORT: '8443', TOKEN_A: 's3cr3t-a', EMPTY: '', WEIRD: '$& $1' };
const run = (doc: unknown) => substituteEnv(doc, env, isSecretConfigPath);

describe('substituteEnv', () => {
  it('replaces several variables in one string', () => {
    const r = run({ gateway: { publicUrl: 'https://${HOST}:${PORT}/${HOST}' } });
    expect(r.value).toEqual({ gateway: { publicUrl: 'https://claw.example:8443/claw.example' } });
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.unusableSecretPaths).toEqual([]);
  });

  it('inserts variable values literally, even with replace() patterns in them', () => {
    expect(run({ a: '${WEIRD}' }).value).toEqual({ a: '$& $1' });
  });

  it('turns $${X} into a literal ${X} without looking X up', () => {
    const r = run({ a: 'cost: $${HOST} and ${HOST}', b: '$${NOT_SET_ANYWHERE}' });
    expect(r.value).toEqual({ a: 'cost: ${HOST} and claw.example', b: '${NOT_SET_ANYWHERE}' });
    expect(r.errors).toEqual([]);
  });

  it('leaves ${...} with an invalid name (and unterminated references) alone', () => {
    const r = run({ a: '${lower} ${1ABC} ${} ${HOST', b: '$HOST' });
    expect(r.value).toEqual({ a: '${lower} ${1ABC} ${} ${HOST', b: '$HOST' });
    expect(r.errors).toEqual([]);
  });

  it('takes the default of ${VAR:-default} only when VAR is unset or empty', () => {
    const r = run({ a: '${PORT:-18789}', b: '${NOT_SET_ANYWHERE:-18789}', c: '${EMPTY:-x}', d: 'http://h:${UNSET_PORT:-}/' });
    expect(r.value).toEqual({ a: '8443', b: '18789', c: 'x', d: 'http://h:/' });
    expect(r.errors).toEqual([]);
    expect(r.substitutions).toEqual([
      { path: 'a', names: ['PORT'], whole: true },
      { path: 'b', names: ['NOT_SET_ANYWHERE'], whole: true },
      { path: 'c', names: ['EMPTY'], whole: true },
      { path: 'd', names: ['UNSET_PORT'], whole: false },
    ]);
  });

  it('does not scan keys or non-string values', () => {
    const r = run({ '${HOST}': 1, n: 5, t: true, z: null });
    expect(r.value).toEqual({ '${HOST}': 1, n: 5, t: true, z: null });
  });

  it('reports a missing variable in a non-secret field with its dotted path and leaves the value', () => {
    const r = run({ gateway: { publicUrl: 'https://${PUBLIC_HOST}:${PORT}' } });
    expect(r.errors).toEqual([{ path: 'gateway.publicUrl', message: 'missing environment variable PUBLIC_HOST' }]);
    expect(r.value).toEqual({ gateway: { publicUrl: 'https://${PUBLIC_HOST}:${PORT}' } });
    expect(r.warnings).toEqual([]);
  });

  it('reports every distinct missing variable of a string once', () => {
    const r = run({ a: '${X1}${X2}${X1}' });
    expect(r.errors.map((e) => e.message)).toEqual(['missing environment variable X1', 'missing environment variable X2']);
  });

  it('warns about a missing secret, removes the key and lists the path as unusable', () => {
    const r = run({ channels: { a2a: { peers: { hermes: { url: 'https://h', token: '${HERMES_TOKEN}' } } } } });
    expect(r.warnings).toEqual([
      {
        path: 'channels.a2a.peers.hermes.token',
        message: 'environment variable HERMES_TOKEN is not set; this entry is unusable until it is',
      },
    ]);
    expect(r.errors).toEqual([]);
    expect(r.unusableSecretPaths).toEqual(['channels.a2a.peers.hermes.token']);
    const hermes = (r.value as any).channels.a2a.peers.hermes;
    expect(hermes).toEqual({ url: 'https://h' });
    expect('token' in hermes).toBe(false);
    expect(JSON.stringify(r.value)).not.toContain('${HERMES_TOKEN}');
  });

  it('treats an empty variable as missing', () => {
    const r = run({ gateway: { publicUrl: '${EMPTY}' }, x: { apiKey: '${EMPTY}' } });
    expect(r.errors).toEqual([{ path: 'gateway.publicUrl', message: 'missing environment variable EMPTY' }]);
    expect(r.unusableSecretPaths).toEqual(['x.apiKey']);
    expect(r.value).toEqual({ gateway: { publicUrl: '${EMPTY}' }, x: {} });
  });

  it('uses array indexes in paths', () => {
    const r = run({
      gateway: { admin: { tokens: [{ token: '${TOKEN_A}' }, { name: 'ops', token: '${TOKEN_B}' }] } },
      list: [['${NOPE}']],
    });
    expect(r.unusableSecretPaths).toEqual(['gateway.admin.tokens[1].token']);
    expect(r.errors).toEqual([{ path: 'list[0][0]', message: 'missing environment variable NOPE' }]);
    expect(r.value).toEqual({
      gateway: { admin: { tokens: [{ token: 's3cr3t-a' }, { name: 'ops' }] } },
      list: [['${NOPE}']],
    });
  });

  it('treats provider header values as secrets and quotes keys that are not identifiers', () => {
    const headers = { 'X-Org': '${ORG}', 'x api key': '${KEY}', Authorization: 'Bearer ${TOKEN_A}' };
    const r = run({ models: { providers: { openai: { headers } } } });
    expect(r.unusableSecretPaths).toEqual(['models.providers.openai.headers.X-Org', 'models.providers.openai.headers["x api key"]']);
    expect(r.value).toEqual({ models: { providers: { openai: { headers: { Authorization: 'Bearer s3cr3t-a' } } } } });
  });

  it('never puts a variable value into a message', () => {
    const r = run({ a: '${TOKEN_A}${MISSING_ONE}', b: { apiKey: '${TOKEN_A}${MISSING_TWO}' } });
    const text = JSON.stringify([...r.errors, ...r.warnings]);
    expect(text).not.toContain('s3cr3t-a');
    expect(r.errors).toHaveLength(1);
    expect(r.warnings).toHaveLength(1);
  });

  it('does not mutate its input', () => {
    const doc = { a: { token: '${UNSET_TOKEN}', url: '${HOST}' }, list: ['${PORT}'] };
    const before = JSON.parse(JSON.stringify(doc));
    const r = run(doc);
    expect(doc).toEqual(before);
    expect(r.value).not.toBe(doc);
    expect((r.value as any).a).not.toBe(doc.a);
    expect((r.value as any).list).not.toBe(doc.list);
  });

  it('uses the given secret detector and handles a bare string document', () => {
    expect(substituteEnv('${NOPE}', {}, () => true)).toEqual({
      value: undefined,
      errors: [],
      warnings: [{ path: '', message: 'environment variable NOPE is not set; this entry is unusable until it is' }],
      unusableSecretPaths: [''],
    });
    expect(substituteEnv({ a: '${NOPE}' }, {}, () => false).errors).toHaveLength(1);
  });
});

describe('the substitutions substituteEnv records', () => {
  it('has every substituted string with its path, its variables and whether it was one reference, never the value', () => {
    const subs = substituteEnv(
      { gateway: { publicUrl: '${URL}', trustedProxies: ['${PROXY}', 'literal'] }, bindings: [{ agentId: 'team-${TEAM}-${TEAM}-${URL}' }] },
      { URL: 'not a url s3cr3t-env', PROXY: 'proxy.internal', TEAM: 'blue' },
      isSecretConfigPath,
    ).substitutions;
    expect(subs).toEqual([
      { path: 'gateway.publicUrl', names: ['URL'], whole: true },
      { path: 'gateway.trustedProxies[0]', names: ['PROXY'], whole: true },
      { path: 'bindings[0].agentId', names: ['TEAM', 'URL'], whole: false },
    ]);
    expect(substituteEnv({ a: 'no reference', b: '$${ESCAPED}' }, {}, isSecretConfigPath).substitutions).toBeUndefined();
  });
});

describe('isSecretConfigPath', () => {
  it.each([
    [['channels', 'a2a', 'peers', 'hermes', 'token']],
    [['channels', 'a2a', 'peers', 'hermes', 'outboundToken']],
    [['models', 'providers', 'openai', 'apiKey']],
    [['models', 'providers', 'openai', 'APIKEY']],
    [['channels', 'slack', 'botToken']],
    [['channels', 'slack', 'signingSecret']],
    [['channels', 'x', 'clientSecret']],
    [['models', 'providers', 'x', 'openaiApiKey']],
    [['db', 'password']],
    [['db', 'adminPassword']],
    [['gateway', 'admin', 'tokens', 0, 'token']],
    [['models', 'providers', 'openai', 'headers', 'X-Org']],
    [['models', 'providers', 'openai', 'headers', 'Authorization']],
    // OpenClaw settings clawgate keeps in the document without using them: every header and environment map,
    // the credential names OpenClaw's SecretRef surface lists, anything under a Google service account.
    [['mcp', 'servers', 'docs', 'headers', 'X-Org']],
    [['env', 'OPENROUTER_API_KEY']],
    [['env', 'vars', 'GROQ_API_KEY']],
    [['skills', 'entries', 'image-lab', 'env', 'GEMINI_API_KEY']],
    [['channels', 'nostr', 'privateKey']],
    [['channels', 'feishu', 'accounts', 'main', 'encryptKey']],
    [['channels', 'buzz', 'authTag']],
    [['models', 'providers', 'x', 'request', 'tls', 'passphrase']],
    [['channels', 'googlechat', 'serviceAccount']],
    [['channels', 'googlechat', 'serviceAccount', 'private_key']],
  ])('%j is secret', (segments) => {
    expect(isSecretConfigPath(segments)).toBe(true);
  });

  it.each([
    [['gateway', 'publicUrl']],
    [['gateway', 'admin', 'tokens']],
    [['gateway', 'admin', 'tokens', 0]],
    [['channels', 'a2a', 'peers', 'hermes', 'tokenFile']],
    [['agents', 'list', 0, 'model']],
    [['models', 'providers', 'openai', 'baseUrl']],
    [['env', 'shellEnv', 'enabled']],
    [['channels', 'feishu', 'appId']],
    [['gateway', 'tls', 'keyPath']],
    [[]],
  ])('%j is not secret', (segments) => {
    expect(isSecretConfigPath(segments)).toBe(false);
  });
});
