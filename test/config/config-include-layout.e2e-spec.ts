import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

/**
 * Moving config between files without changing what it says: the revision stays the same, but the set of
 * files the config is read from changes, and the watcher and its stat backstop must follow that set. Each
 * case then revokes an admin token in the file that now holds it and expects the token to stop working.
 * See docs/configuration.md#7-hot-reload.
 */

const ROOT = 'root-token-5feceb66ffc86f38';
const TEMP = 'temp-token-6b86b273ff34fce1';
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

const ROOT_ENTRY = `{ name: "root", token: "${ROOT}", role: "admin" }`;
const TEMP_ENTRY = `{ name: "temp", token: "${TEMP}", role: "viewer" }`;
/** Both tokens, and after the revocation only the root one. */
const BOTH = `[${ROOT_ENTRY}, ${TEMP_ENTRY}]`;
const REVOKED = `[${ROOT_ENTRY}]`;

/** Default reload settings (debounce 300 ms), as on a real gateway. `admin` is the body of gateway.admin. */
const root = (admin: string) => `{ agents: { list: [{ id: "main" }] }, gateway: { admin: { ${admin} } } }\n`;
const tokensFile = (tokens: string) => `{ tokens: ${tokens} }\n`;

interface Status {
  revision: string;
  loadedAt: string;
  files: string[];
  lastError: unknown;
}

async function status(gw: TestGateway): Promise<Status> {
  return (await request(gw.url).get('/admin/config/status').set(bearer(ROOT)).expect(200)).body as Status;
}

async function tokenStatus(gw: TestGateway, token: string): Promise<number> {
  return (await request(gw.url).get('/admin/config').set(bearer(token))).status;
}

/** The served files relative to the gateway's directory, as real paths (the temp dir may be a symlink). */
async function relativeFiles(gw: TestGateway, s: Status): Promise<string[]> {
  const dir = await fs.realpath(gw.dir);
  return s.files.map((f) => path.relative(dir, f));
}

/**
 * Until the gateway serves a snapshot read from exactly `files`, loaded after `since` (a status taken before
 * the edit), with the same revision as then (the edit moved config, it did not change it) and no error.
 */
async function servedFrom(gw: TestGateway, files: string[], since: Status): Promise<Status> {
  return waitFor(
    `a snapshot of revision ${since.revision} read from ${files.join(', ')}`,
    async () => {
      const s = await status(gw);
      const fresh = s.loadedAt !== since.loadedAt && s.revision === since.revision && s.lastError === null;
      return fresh && (await relativeFiles(gw, s)).join() === files.join() ? s : undefined;
    },
    5000,
  );
}

/** The revocation: the temp token answers 401 (the root one still 200) within the usual reload time. */
async function expectRevoked(gw: TestGateway): Promise<void> {
  await waitFor('the revoked token to answer 401', async () => (await tokenStatus(gw, TEMP)) === 401, 5000);
  expect(await tokenStatus(gw, ROOT)).toBe(200);
}

describe('include ADDED: tokens moved into a new included file (e2e)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(root(`tokens: ${BOTH}`));
  });
  afterAll(() => gw.stop());

  it('follows the new file: revoking the token there takes effect', async () => {
    const start = await status(gw);
    await fs.writeFile(path.join(gw.dir, 'tokens.json5'), tokensFile(BOTH));
    await gw.writeConfig(root('$include: "tokens.json5"'));
    await servedFrom(gw, ['openclaw.json', 'tokens.json5'], start);
    expect(await tokenStatus(gw, TEMP)).toBe(200);

    await fs.writeFile(path.join(gw.dir, 'tokens.json5'), tokensFile(REVOKED));
    await expectRevoked(gw);
  }, 20_000);
});

describe('include REMOVED: tokens moved back inline (e2e)', () => {
  // Removing an include alone cannot lose an edit even when the watcher keeps the old set: the file that held
  // the `$include` and now holds the tokens was watched already. So the layout being undone here is one the
  // gateway was moved to without a new revision (gateway.admin split off into admin.json5, its tokens into
  // secrets/tokens.json5), and the removal also drops a directory from the watched set.
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(root(`tokens: ${BOTH}`));
  });
  afterAll(() => gw.stop());

  it('follows the smaller set: revoking the token in the file that now holds it takes effect', async () => {
    const start = await status(gw);
    await fs.mkdir(path.join(gw.dir, 'secrets'));
    await fs.writeFile(path.join(gw.dir, 'secrets', 'tokens.json5'), tokensFile(BOTH));
    await fs.writeFile(path.join(gw.dir, 'admin.json5'), '{ $include: "secrets/tokens.json5" }\n');
    await gw.writeConfig('{ agents: { list: [{ id: "main" }] }, gateway: { admin: { $include: "admin.json5" } } }\n');
    const split = await servedFrom(gw, ['openclaw.json', 'admin.json5', path.join('secrets', 'tokens.json5')], start);

    // The include of secrets/tokens.json5 is removed and its content goes back inline into admin.json5.
    await fs.writeFile(path.join(gw.dir, 'admin.json5'), tokensFile(BOTH));
    await servedFrom(gw, ['openclaw.json', 'admin.json5'], split);
    expect(await tokenStatus(gw, TEMP)).toBe(200);

    await fs.writeFile(path.join(gw.dir, 'admin.json5'), tokensFile(REVOKED));
    await expectRevoked(gw);
  }, 20_000);
});

describe('include MOVED (e2e)', () => {
  it('renamed, with the $include pointed at the new name: revoking the token there takes effect', async () => {
    const gw = await startTestGateway(root('$include: "tokens.json5"'), { files: { 'tokens.json5': tokensFile(BOTH) } });
    try {
      const start = await status(gw);
      await fs.rename(path.join(gw.dir, 'tokens.json5'), path.join(gw.dir, 'admin-tokens.json5'));
      await gw.writeConfig(root('$include: "admin-tokens.json5"'));
      await servedFrom(gw, ['openclaw.json', 'admin-tokens.json5'], start);
      expect(await tokenStatus(gw, TEMP)).toBe(200);

      await fs.writeFile(path.join(gw.dir, 'admin-tokens.json5'), tokensFile(REVOKED));
      await expectRevoked(gw);
    } finally {
      await gw.stop();
    }
  }, 20_000);

  it('a symlink the $include goes through re-pointed to a copy: revoking the token in the copy takes effect', async () => {
    // tokens.json5 -> v1/tokens.json5 is re-pointed to v2/tokens.json5 (same text); the old target stays.
    const gw = await startTestGateway(root('$include: "tokens.json5"'), {
      files: { 'v1/tokens.json5': tokensFile(BOTH), 'v2/tokens.json5': tokensFile(BOTH) },
      beforeStart: (stateDir) => fs.symlink(path.join('v1', 'tokens.json5'), path.join(path.dirname(stateDir), 'tokens.json5')),
    });
    try {
      const start = await status(gw);
      expect(await relativeFiles(gw, start)).toEqual(['openclaw.json', path.join('v1', 'tokens.json5')]);
      const tmp = path.join(gw.dir, 'tokens.json5.tmp');
      await fs.symlink(path.join('v2', 'tokens.json5'), tmp);
      await fs.rename(tmp, path.join(gw.dir, 'tokens.json5'));
      await servedFrom(gw, ['openclaw.json', path.join('v2', 'tokens.json5')], start);
      expect(await tokenStatus(gw, TEMP)).toBe(200);

      await fs.writeFile(path.join(gw.dir, 'v2', 'tokens.json5'), tokensFile(REVOKED));
      await expectRevoked(gw);
    } finally {
      await gw.stop();
    }
  }, 20_000);
});

describe('include EMPTIED: an included file that held {} then gets the tokens (e2e)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(root(`tokens: ${BOTH}`));
  });
  afterAll(() => gw.stop());

  it('follows the file from when it is included: revoking the token there takes effect', async () => {
    const start = await status(gw);
    await fs.writeFile(path.join(gw.dir, 'admin.json5'), '{}\n');
    await gw.writeConfig(root(`$include: "admin.json5", tokens: ${BOTH}`));
    const included = await servedFrom(gw, ['openclaw.json', 'admin.json5'], start);

    // The tokens move from the root into the included file (file first, as an operator would).
    await fs.writeFile(path.join(gw.dir, 'admin.json5'), tokensFile(BOTH));
    await gw.writeConfig(root('$include: "admin.json5"'));
    await servedFrom(gw, ['openclaw.json', 'admin.json5'], included);
    expect(await tokenStatus(gw, TEMP)).toBe(200);

    await fs.writeFile(path.join(gw.dir, 'admin.json5'), tokensFile(REVOKED));
    await expectRevoked(gw);
  }, 20_000);
});
