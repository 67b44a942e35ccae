import { ConfigIssue, toDottedPath } from './config-issue';
import { RESERVED_KEY_MESSAGE, RESERVED_KEY_NAMES } from './reserved-keys';
import { validateConfig } from './validate-config';

// The keys of a config: unknown ones (with did-you-mean), the names maps accept, and names that are never keys.
// The values under them are validate-config.spec.ts's.

/** `path: message` lines, the way the CLI prints them; easier to read in a failing expectation. */
const lines = (issues: ConfigIssue[]) => issues.map((i) => `${i.path}: ${i.message}`);
const errorsOf = (doc: unknown) => lines(validateConfig(doc).errors);

describe('validateConfig: keys', () => {
  describe('unknown keys', () => {
    it('names the dotted path of a nested unknown key and suggests the closest known one', () => {
      const doc = { agents: { list: [{ id: 'a' }, { id: 'b' }, { id: 'c', modle: 'echo/x' }] } };
      expect(errorsOf(doc)).toEqual(['agents.list[2].modle: unknown key (did you mean "model"?)']);
      expect(errorsOf({ agents: { list: [{ id: 'a', sandbox: { mdoe: 'all' } }] } })).toEqual([
        'agents.list[0].sandbox.mdoe: unknown key (did you mean "mode"?)',
      ]);
      expect(errorsOf({ channels: { a2a: { peers: { hermes: { token: 't', outboundTokne: 'u' } } } } })).toEqual([
        'channels.a2a.peers.hermes.outboundTokne: unknown key (did you mean "outboundToken"?)',
      ]);
      expect(errorsOf({ agents: { entries: { main: { worksapce: '/w' } } } })).toEqual([
        'agents.entries.main.worksapce: unknown key (did you mean "workspace"?)',
      ]);
    });

    it('gives no suggestion when nothing is close, and reports every unknown key', () => {
      expect(errorsOf({ gateway: { zzzzzzzz: 1, prot: 1 } })).toEqual([
        'gateway.zzzzzzzz: unknown key',
        'gateway.prot: unknown key (did you mean "port"?)',
      ]);
    });

    it('suggests the OpenClaw setting a misspelt key is close to, implemented by clawgate or not', () => {
      expect(errorsOf({ gateway: { contrlUi: {}, prot: 1 } })).toEqual([
        'gateway.contrlUi: unknown key (did you mean "controlUi"?)',
        'gateway.prot: unknown key (did you mean "port"?)',
      ]);
      expect(errorsOf({ agents: { list: [{ id: 'a', subagnets: {} }] }, hoks: {} })).toEqual([
        'agents.list[0].subagnets: unknown key (did you mean "subagents"?)',
        'hoks: unknown key (did you mean "hooks"?)',
      ]);
    });

    it('allows $schema only at the root', () => {
      expect(errorsOf({ $schema: 'x' })).toEqual([]);
      expect(errorsOf({ agents: { $schema: 'x' } })).toEqual(['agents.$schema: unknown key']);
    });
  });

  describe('map keys', () => {
    it('rejects peer names outside ^[a-z0-9][a-z0-9._-]{0,63}$ and names each bad one', () => {
      const long = 'a'.repeat(65);
      const errors = errorsOf({
        channels: {
          a2a: { peers: { Hermes: { token: 'a' }, '.dot': { token: 'b' }, [long]: { token: 'c' }, ['b'.repeat(64)]: { token: 'd' } } },
        },
      });
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/^channels\.a2a\.peers: invalid name "Hermes", "\.dot", "a{65}": names must match/);
      // The 64-char name is fine and is not listed.
      expect(errors[0]).not.toContain(`"${'b'.repeat(64)}"`);
    });

    it('applies the same rule to http accounts and a provider-name rule to models.providers', () => {
      expect(errorsOf({ channels: { http: { accounts: { 'Two Words': { token: 'x' } } } } })).toEqual([
        'channels.http.accounts: invalid name "Two Words": names must match ^[a-z0-9][a-z0-9._-]{0,63}$',
      ]);
      expect(errorsOf({ models: { providers: { 'my provider': { api: 'echo' } } } })[0]).toMatch(
        /^models\.providers: invalid name "my provider"/,
      );
    });

    it('validates the values of string maps and names the offending keys', () => {
      expect(errorsOf({ gateway: { admin: { sso: { roleMapping: { devs: 'operator', ops: 'root' } } } } })).toEqual([
        'gateway.admin.sso.roleMapping: must map names to one of: viewer, operator, admin (check "ops")',
      ]);
    });
  });

  describe('reserved key names', () => {
    // JSON.parse, because `__proto__` in an object literal would set the prototype instead of adding a key.
    const doc = (json: string): unknown => JSON.parse(json);

    it.each([...RESERVED_KEY_NAMES])('rejects %s as a section key, an object key, a map name and a string-map name', (name) => {
      const key = JSON.stringify(name);
      const at = toDottedPath([name]);
      expect(errorsOf(doc(`{ ${key}: {} }`))).toEqual([`${at}: ${RESERVED_KEY_MESSAGE}`]);
      expect(errorsOf(doc(`{ "tools": { ${key}: {} } }`))).toEqual([`${toDottedPath(['tools', name])}: ${RESERVED_KEY_MESSAGE}`]);
      expect(errorsOf(doc(`{ "channels": { "http": { "accounts": { ${key}: { "token": "t" } } } } }`))).toEqual([
        `${toDottedPath(['channels', 'http', 'accounts', name])}: ${RESERVED_KEY_MESSAGE}`,
      ]);
      expect(errorsOf(doc(`{ "models": { "providers": { "p": { "api": "echo", "headers": { ${key}: "v" } } } } }`))).toEqual([
        `${toDottedPath(['models', 'providers', 'p', 'headers', name])}: ${RESERVED_KEY_MESSAGE}`,
      ]);
    });

    it('reports every reserved key, inside arrays too, in the order of the document', () => {
      expect(
        errorsOf(doc('{ "agents": { "list": [{ "id": "a", "valueOf": 1 }, { "id": "b", "tools": { "__proto__": [] } }] }, "constructor": 1 }')),
      ).toEqual([
        `agents.list[0].valueOf: ${RESERVED_KEY_MESSAGE}`,
        `agents.list[1].tools.__proto__: ${RESERVED_KEY_MESSAGE}`,
        `constructor: ${RESERVED_KEY_MESSAGE}`,
      ]);
    });

    it('leaves names that only resemble them alone', () => {
      const result = validateConfig({
        gateway: { admin: { sso: { roleMapping: { Constructor: 'admin', proto: 'viewer', tostring: 'operator' } } } },
      });
      expect(lines(result.errors)).toEqual([]);
    });
  });
});
