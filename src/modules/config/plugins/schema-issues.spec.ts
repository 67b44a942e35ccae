import { compileSchema, pluginAjv } from './plugin-ajv';
import { schemaProblems } from './schema-issues';

const NAME = '^[a-z0-9][a-z0-9._-]{0,63}$';

/** The messages a plugin's schema gives for `value`, as the config reports them below `base`. */
function problems(schema: Record<string, unknown>, value: unknown, base = ['channels', 'x']): string[] {
  const compiled = compileSchema(pluginAjv(), schema);
  if ('problem' in compiled) throw new Error(compiled.problem);
  if (compiled.validate(value)) return [];
  return schemaProblems(compiled.validate.errors ?? [], base, { quote: (_p, v) => JSON.stringify(v), isSecret: () => false }).map(
    (p) => `${p.path.join('.')}: ${p.message}`,
  );
}

describe('schemaProblems', () => {
  const accounts = {
    type: 'object',
    properties: {
      accounts: {
        type: 'object',
        propertyNames: { pattern: NAME },
        additionalProperties: { type: 'object', properties: { token: { type: 'string' } } },
      },
    },
  };

  it('says refused map keys once for the map, worded as the core schema words its maps', () => {
    expect(problems(accounts, { accounts: { 'Two Words': {}, ok: {} } })).toEqual([
      `channels.x.accounts: invalid name "Two Words": names must match ${NAME}`,
    ]);
    expect(problems(accounts, { accounts: { A: {}, ok: {}, '.dot': {} } })).toEqual([
      `channels.x.accounts: invalid name "A", ".dot": names must match ${NAME}`,
    ]);
  });

  it('still reports the values of a map whose names are fine, and names without a pattern by their rule', () => {
    expect(problems(accounts, { accounts: { desk: { token: 1 } } })).toEqual(['channels.x.accounts.desk.token: expected string (got a number)']);
    const short = { type: 'object', propertyNames: { maxLength: 3 } };
    expect(problems(short, { abcd: 1 })).toEqual(['channels.x: invalid name "abcd": must NOT have more than 3 characters']);
  });

  it('keeps the wording of unknown keys and wrong types', () => {
    const strict = { type: 'object', additionalProperties: false, properties: { token: { type: 'string' } } };
    expect(problems(strict, { tokn: 'x' })).toEqual(['channels.x.tokn: unknown key (did you mean "token"?)']);
  });

  it('refuses a URL with credentials at a key marked x-noUrlCredentials, saying where they go, never quoting it', () => {
    const PASSWORD = 'url-pass-DO-NOT-PRINT';
    const hook = {
      type: 'object',
      properties: { webhookUrl: { type: 'string', pattern: '^https?://', 'x-noUrlCredentials': 'deliveries are signed; the receiver checks the signature' } },
    };
    const said = problems(hook, { webhookUrl: `http://svc:${PASSWORD}@svc.internal:8080/path` });
    expect(said).toEqual([
      'channels.x.webhookUrl: must not contain credentials (user:password@); deliveries are signed; the receiver checks the signature',
    ]);
    expect(problems(hook, { webhookUrl: 'http://svc.internal:8080/path?ok=1' })).toEqual([]);
    // Not a URL at all: the pattern says so; the keyword has nothing to add.
    expect(problems(hook, { webhookUrl: 'svc' })).toEqual(['channels.x.webhookUrl: must match pattern "^https?://" (got "svc")']);
  });
});
