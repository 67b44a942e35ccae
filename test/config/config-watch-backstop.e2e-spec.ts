import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { ConfigStore } from '../../src/modules/config/config.store';
import type { ReloadTrigger } from '../../src/modules/config/config.store';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { API_CLIENT } from '../support/admin-client';

/**
 * Saves the file watcher (chokidar) can miss, checked through the HTTP API: a revoked admin token must stop
 * working however the file was saved. The stat backstop of the config watcher is what catches these; see
 * docs/configuration.md#7-hot-reload.
 */

const ROOT = 'root-token-9f86d081884c7d65';
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const tempToken = (i: number) => `temp-revoke-${i}-2c26b46b68ffc68f`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Default reload settings (debounce 300 ms), as on a real gateway. */
const config = (i: number) => `{
  agents: { list: [{ id: "main" }] },
  gateway: { admin: { tokens: [
    { name: "root", token: "${ROOT}", role: "admin" },
    { name: "temp", token: "${tempToken(i)}", role: "viewer" },
  ] } },
}
`;

/** What `sed -i` does: write a temp file next to the original (same mode) and rename it over. */
async function renameOver(file: string, text: string, mode: number): Promise<void> {
  const tmp = path.join(path.dirname(file), `.sed${process.hrtime.bigint()}`);
  await fs.writeFile(tmp, text, { mode });
  await fs.chmod(tmp, mode);
  await fs.rename(tmp, file);
}

async function tokenStatus(gw: TestGateway, token: string): Promise<number> {
  return (await request(gw.url).get('/admin/config').set(bearer(token))).status;
}

/** Until the change is applied: the previous temp token answers 401 and the new one 200. */
async function applied(gw: TestGateway, i: number, timeoutMs: number): Promise<boolean> {
  try {
    await waitFor(
      `edit ${i} to be applied`,
      async () => (await tokenStatus(gw, tempToken(i - 1))) === 401 && (await tokenStatus(gw, tempToken(i))) === 200,
      timeoutMs,
    );
    return true;
  } catch {
    return false;
  }
}

describe('config saves right after a mode change (e2e)', () => {
  // chokidar takes the chmod's event for an access-time-only change (the gateway read the file since it was
  // written) and drops the rename's event that follows within its 5 ms throttle. Without the backstop this
  // lost 1-5 of the 30 saves per run (docs/decisions.md).
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(config(0));
  });
  afterAll(() => gw.stop());

  it('applies every one of 30 chmod-then-rename saves (the revoked token answers 401)', async () => {
    expect(await tokenStatus(gw, tempToken(0))).toBe(200);
    const lost: number[] = [];
    for (let i = 1; i <= 30; i++) {
      const mode = i % 2 ? 0o600 : 0o644;
      await fs.chmod(gw.configPath, mode);
      await renameOver(gw.configPath, config(i), mode);
      // Well past write stability (200 ms) + debounce (300 ms) + one backstop period (1 s).
      if (!(await applied(gw, i, 4000))) {
        lost.push(i);
        // Make the next iteration independent of this one: apply it by hand.
        await request(gw.url).post('/admin/config/reload').set(API_CLIENT).set(bearer(ROOT)).expect(200);
      }
    }
    expect(lost).toEqual([]);
    const status = (await request(gw.url).get('/admin/config/status').set(bearer(ROOT)).expect(200)).body;
    expect(status.lastError).toBeNull();
  }, 180_000);
});

describe('a change no watcher event reports (e2e)', () => {
  // Kubernetes-ConfigMap layout: openclaw.json -> ..data/openclaw.json, ..data -> ..v1. Re-pointing ..data
  // changes what openclaw.json is without touching any file chokidar follows: it watches the directories of
  // the real files (here ..v1) and ignores every other name in them, ..data included. Only the backstop
  // (a stat of openclaw.json, symlinks followed) can see it. (kubelet then deletes the old directory, which
  // chokidar would report; here it stays.)
  let gw: TestGateway;
  const triggers: ReloadTrigger[] = [];
  let unsubscribe: () => void;
  const link = async (target: string, name: string) => {
    const tmp = path.join(gw.dir, `${name}.tmp`);
    await fs.symlink(target, tmp);
    await fs.rename(tmp, path.join(gw.dir, name));
  };
  beforeAll(async () => {
    gw = await startTestGateway(config(0));
    // Rebuild the layout under the running gateway, then make it load that (applied: a new revision).
    await fs.mkdir(path.join(gw.dir, '..v1'));
    await fs.writeFile(path.join(gw.dir, '..v1', 'openclaw.json'), config(1));
    await link('..v1', '..data');
    await link(path.join('..data', 'openclaw.json'), 'openclaw.json');
    expect(await applied(gw, 1, 5000)).toBe(true);
    const status = (await request(gw.url).get('/admin/config/status').set(bearer(ROOT)).expect(200)).body;
    expect(status.files).toEqual([await fs.realpath(path.join(gw.dir, '..v1', 'openclaw.json'))]);
    unsubscribe = gw.app.get(ConfigStore).onReloaded((o) => triggers.push(o.trigger));
    // The setup's own late events (and the reloads they cause) are over before the test starts counting.
    await sleep(2500);
    triggers.length = 0;
  });
  afterAll(async () => {
    unsubscribe();
    await gw.stop();
  });

  it('applies a re-pointed ..data symlink within a few backstop periods, reported as trigger "poll"', async () => {
    await fs.mkdir(path.join(gw.dir, '..v2'));
    await fs.writeFile(path.join(gw.dir, '..v2', 'openclaw.json'), config(2));
    await link('..v2', '..data');
    expect(await applied(gw, 2, 5000)).toBe(true);
    // The outcome is reported after the swap (and the last-good copy), so it may trail the API by a moment.
    await waitFor('the reload outcome', async () => triggers.length > 0);
    expect(triggers).toEqual(['poll']);

    // The old target stays; the new one is followed from now on (an in-place edit of it is seen too).
    await fs.writeFile(path.join(gw.dir, '..v2', 'openclaw.json'), config(3));
    expect(await applied(gw, 3, 5000)).toBe(true);
  }, 20_000);
});

describe('the backstop and the watcher together (e2e)', () => {
  let gw: TestGateway;
  const outcomes: Array<{ status: string; trigger: ReloadTrigger }> = [];
  let unsubscribe: () => void;
  beforeAll(async () => {
    gw = await startTestGateway(config(0));
    unsubscribe = gw.app.get(ConfigStore).onReloaded((o) => outcomes.push({ status: o.status, trigger: o.trigger }));
  });
  afterAll(async () => {
    unsubscribe();
    await fs.rm(gw.dir, { recursive: true, force: true });
  });

  it('turns a touch or a chmod (same content, new stamp) into exactly one "unchanged" reload', async () => {
    const changes = [
      () => fs.utimes(gw.configPath, new Date(), new Date()),
      () => fs.chmod(gw.configPath, 0o600),
      () => fs.chmod(gw.configPath, 0o644),
    ];
    for (const change of changes) {
      outcomes.length = 0;
      await change();
      await waitFor('the reload', async () => outcomes.length > 0, 5000);
      // Both chokidar and the backstop see the change; they share one debounce, so a second reload would
      // come within one backstop period (1 s) plus the delay of its reload (under 1 s).
      await sleep(2500);
      expect(outcomes.map((o) => o.status)).toEqual(['unchanged']);
    }
  }, 30_000);

  it('stops with the gateway: a change after shutdown is not even looked at', async () => {
    await gw.close();
    outcomes.length = 0;
    const stat = jest.spyOn(fs, 'stat');
    try {
      await renameOver(gw.configPath, config(1), 0o644);
      await sleep(2500);
      expect(outcomes).toEqual([]);
      // Not one backstop tick ran (each would stat the file).
      expect(stat.mock.calls.filter(([file]) => file === gw.configPath)).toEqual([]);
    } finally {
      stat.mockRestore();
    }
  }, 10_000);
});
