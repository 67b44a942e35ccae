import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { AppError } from '../../src/common/errors/app-error';
import { problemFromAppError } from '../../src/common/errors/problem-details';
import { POLL_INTERVAL_MS } from '../../src/modules/config/config-watcher.service';
import { ConfigStore } from '../../src/modules/config/config.store';
import { ConfigWriter } from '../../src/modules/config/writer/config-writer.service';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { API_CLIENT } from '../support/admin-client';

/**
 * Hot reload end to end: a real gateway, real files, real chokidar events. Configs use a
 * short debounce so the suite is quick; the write-stability wait (200 ms) still applies.
 * See docs/configuration.md#7-hot-reload and docs/configuration.md#12-edits-made-by-the-gateway.
 */

const FAST = 'gateway: { reload: { debounceMs: 50 } }';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function status(gw: TestGateway) {
  return (await request(gw.url).get('/admin/config/status').expect(200)).body as {
    revision: string;
    lastError: { at: string; errors: Array<{ path: string; message: string }> } | null;
    pendingRestart: string[];
    files: string[];
  };
}

async function agentIds(gw: TestGateway): Promise<string[]> {
  const doc = (await request(gw.url).get('/admin/config').expect(200)).body.document;
  return (doc.agents?.list ?? []).map((a: { id: string }) => a.id);
}

async function newRevision(gw: TestGateway, than: string, timeoutMs = 5000) {
  return waitFor(
    `a revision other than ${than}`,
    async () => {
      const s = await status(gw);
      return s.revision !== than ? s : undefined;
    },
    timeoutMs,
  );
}

async function reloadCounts(gw: TestGateway): Promise<Record<'applied' | 'unchanged' | 'rejected', number>> {
  const text = (await request(gw.url).get('/metrics').expect(200)).text;
  const count = (result: string) => {
    const m = new RegExp(`^clawgate_config_reload_total\\{result="${result}"\\} (\\d+)`, 'm').exec(text);
    if (!m) throw new Error(`no clawgate_config_reload_total{result="${result}"} in /metrics`);
    return Number(m[1]);
  };
  return { applied: count('applied'), unchanged: count('unchanged'), rejected: count('rejected') };
}

describe('config hot reload (e2e)', () => {
  describe('50 rapid edits under load', () => {
    let gw: TestGateway;
    beforeAll(async () => {
      gw = await startTestGateway(`{ ${FAST}, agents: { list: [{ id: "main" }] } }`);
    });
    afterAll(() => gw.stop());

    /** Edit i: valid ones add agent-<i>; every third is broken in one of three ways. */
    function edit(i: number): { text: string; valid: boolean } {
      if (i % 3 !== 2) return { text: `{ ${FAST}, agents: { list: [{ id: "main" }, { id: "agent-${i}" }] } }`, valid: true };
      const broken = [
        `{ ${FAST}, agents: { list: [{ id: "main", modle: "echo/x" }] } }`,
        `{ ${FAST}, agents: { list: [{ id: "main" }, ] `,
        `{ ${FAST}, tools: { sessions: { visibility: "everyone" } } }`,
      ];
      return { text: broken[i % broken.length], valid: false };
    }

    it('keeps answering every request and ends on the last edit', async () => {
      const before = await reloadCounts(gw);
      let done = false;
      let requests = 0;
      const failures: string[] = [];
      const sawInvalid: string[] = [];
      const hammer = async () => {
        while (!done) {
          try {
            const [ready, config] = await Promise.all([request(gw.url).get('/readyz'), request(gw.url).get('/admin/config')]);
            requests += 2;
            if (ready.status !== 200) failures.push(`/readyz ${ready.status}`);
            if (config.status !== 200) failures.push(`/admin/config ${config.status}`);
            // A rejected edit must never become visible, not even for one request.
            const body = JSON.stringify(config.body);
            if (body.includes('modle') || body.includes('everyone')) sawInvalid.push(config.body.revision);
          } catch (err) {
            failures.push(String(err));
          }
        }
      };
      const loops = [hammer(), hammer(), hammer()];

      const last = 49;
      for (let i = 0; i <= last; i++) {
        await gw.writeConfig(edit(i).text);
        // Mostly faster than the watcher can settle; now and then a pause so reloads land mid-stream.
        await sleep(i % 7 === 0 ? 350 : 15);
      }
      expect(edit(last).valid).toBe(true);
      try {
        await waitFor(
          'the last edit to be applied',
          async () => {
            const ids = await agentIds(gw);
            return ids.join() === `main,agent-${last}` ? ids : undefined;
          },
          10_000,
        );
      } finally {
        done = true;
        await Promise.all(loops);
      }

      expect(failures).toEqual([]);
      expect(sawInvalid).toEqual([]);
      // The loop really ran alongside the edits (a dead loop would make the checks above vacuous).
      expect(requests).toBeGreaterThan(50);
      const s = await status(gw);
      expect(s.lastError).toBeNull();
      const after = await reloadCounts(gw);
      expect(after.applied).toBeGreaterThan(before.applied);
      const ready = await request(gw.url).get('/readyz').expect(200);
      expect(ready.body.revision).toBe(s.revision);
    }, 60_000);
  });

  describe('restart-only keys', () => {
    let gw: TestGateway;
    beforeAll(async () => {
      gw = await startTestGateway(`{ ${FAST}, agents: { list: [{ id: "main" }] } }`);
    });
    afterAll(() => gw.stop());

    it('applies everything else and lists gateway.port (then bind) in pendingRestart', async () => {
      const start = await status(gw);
      expect(start.pendingRestart).toEqual([]);

      await gw.writeConfig(`{ gateway: { port: 18790, reload: { debounceMs: 50 } }, agents: { list: [{ id: "main" }, { id: "extra" }] } }`);
      const changed = await newRevision(gw, start.revision);
      expect(changed.pendingRestart).toEqual(['gateway.port']);
      expect(changed.lastError).toBeNull();
      expect(await agentIds(gw)).toEqual(['main', 'extra']);
      // The listener itself did not move: the same URL still answers.
      await request(gw.url).get('/healthz').expect(200);

      await gw.writeConfig(
        `{ gateway: { port: 18790, bind: "::1", reload: { debounceMs: 50 } }, agents: { list: [{ id: "main" }, { id: "extra" }] } }`,
      );
      const both = await newRevision(gw, changed.revision);
      expect(both.pendingRestart).toEqual(['gateway.port', 'gateway.bind']);

      // Back to what the listener runs with: nothing is pending any more.
      await gw.writeConfig(`{ ${FAST}, agents: { list: [{ id: "main" }, { id: "extra" }] } }`);
      const back = await newRevision(gw, both.revision);
      expect(back.pendingRestart).toEqual([]);
    }, 30_000);
  });

  describe('openclaw.last-good.json', () => {
    const SECRET = 'hermes-secret-4b1d';
    let gw: TestGateway;
    const lastGood = async () => JSON.parse(await fs.readFile(path.join(gw.stateDir, 'openclaw.last-good.json'), 'utf8'));
    beforeAll(async () => {
      gw = await startTestGateway(
        `{ ${FAST}, $include: "agents.json5", channels: { a2a: { enabled: true, peers: { hermes: { token: "\${HERMES_TOKEN}" } } } } }`,
        { env: { HERMES_TOKEN: SECRET }, files: { 'agents.json5': '{ agents: { list: [{ id: "main" }] } }' } },
      );
    });
    afterAll(() => gw.stop());

    it('is written at boot with the merged document and ${VAR} references, never their values', async () => {
      const raw = await fs.readFile(path.join(gw.stateDir, 'openclaw.last-good.json'), 'utf8');
      expect(raw).not.toContain(SECRET);
      const doc = JSON.parse(raw);
      expect(doc.channels.a2a.peers.hermes.token).toBe('${HERMES_TOKEN}');
      // Included content is inlined, so the copy stands on its own.
      expect(doc.agents).toEqual({ list: [{ id: 'main' }] });
      expect(doc.$include).toBeUndefined();
    });

    it('follows valid edits and ignores rejected ones; the user file is never rewritten', async () => {
      const start = await status(gw);
      const valid = `{ ${FAST}, $include: "agents.json5", tools: { agentToAgent: { enabled: true } }, channels: { a2a: { enabled: true, peers: { hermes: { token: "\${HERMES_TOKEN}" } } } } }`;
      await gw.writeConfig(valid);
      await newRevision(gw, start.revision);
      // The copy is saved right after the swap, so it may trail the status endpoint by a moment.
      await waitFor('openclaw.last-good.json to follow', async () => (await lastGood()).tools?.agentToAgent?.enabled === true);

      const invalid = valid.replace('enabled: true }', 'enabled: "yes" }');
      await gw.writeConfig(invalid);
      await waitFor('the rejection', async () => (await status(gw)).lastError ?? undefined);
      expect((await lastGood()).tools).toEqual({ agentToAgent: { enabled: true } });
      expect(await fs.readFile(gw.configPath, 'utf8')).toBe(invalid);
      const files = await fs.readdir(gw.dir);
      expect(files.sort()).toEqual(['agents.json5', 'openclaw.json', 'state']);
    }, 20_000);
  });

  describe('$include', () => {
    let gw: TestGateway;
    beforeAll(async () => {
      gw = await startTestGateway(`{ ${FAST}, $include: "fragments/agents.json5" }`, {
        files: {
          'fragments/agents.json5': '{ agents: { list: [{ id: "main" }] } }',
          'fragments/tools.json5': '{ tools: { sessions: { visibility: "all" } } }',
        },
      });
    });
    afterAll(() => gw.stop());

    it('watches included files: editing the fragment gives a new revision', async () => {
      const start = await status(gw);
      expect(start.files.map((f) => path.relative(gw.dir, f))).toEqual(['openclaw.json', path.join('fragments', 'agents.json5')]);
      await fs.writeFile(path.join(gw.dir, 'fragments', 'agents.json5'), '{ agents: { list: [{ id: "main" }, { id: "from-fragment" }] } }');
      await newRevision(gw, start.revision);
      expect(await agentIds(gw)).toEqual(['main', 'from-fragment']);
    });

    it('rejects a broken fragment and keeps the rest of the config', async () => {
      const start = await status(gw);
      await fs.writeFile(
        path.join(gw.dir, 'fragments', 'agents.json5'),
        '{ agents: { list: [{ id: "main" }, { id: "from-fragment", sandbox: { mode: "some" } }] } }',
      );
      const rejected = await waitFor('the rejection', async () => {
        const s = await status(gw);
        return s.lastError ? s : undefined;
      });
      expect(rejected.lastError!.errors.map((e) => e.path)).toEqual(['agents.list[1].sandbox.mode']);
      expect(rejected.revision).toBe(start.revision);
      expect(await agentIds(gw)).toEqual(['main', 'from-fragment']);
    });

    it('starts watching a file once the root includes it', async () => {
      const start = await status(gw);
      await gw.writeConfig(`{ ${FAST}, $include: ["fragments/tools.json5"], agents: { list: [{ id: "main" }] } }`);
      const withTools = await newRevision(gw, start.revision);
      expect(withTools.files.some((f) => f.endsWith(path.join('fragments', 'tools.json5')))).toBe(true);
      await fs.writeFile(path.join(gw.dir, 'fragments', 'tools.json5'), '{ tools: { sessions: { visibility: "self" } } }');
      await newRevision(gw, withTools.revision);
      const doc = (await request(gw.url).get('/admin/config').expect(200)).body.document;
      expect(doc.tools.sessions.visibility).toBe('self');
    });
  });

  describe('gateway.reload.mode: "off"', () => {
    let gw: TestGateway;
    beforeAll(async () => {
      gw = await startTestGateway('{ gateway: { reload: { mode: "off", debounceMs: 50 } }, agents: { list: [{ id: "main" }] } }');
    });
    afterAll(() => gw.stop());

    it('ignores file edits until POST /admin/config/reload applies them', async () => {
      const start = await status(gw);
      await gw.writeConfig('{ gateway: { reload: { mode: "off", debounceMs: 50 } }, agents: { list: [{ id: "main" }, { id: "later" }] } }');
      // Well past stability (200 ms) + debounce (50 ms) + one backstop period: a watcher would have applied it by now.
      await sleep(POLL_INTERVAL_MS + 1200);
      expect((await status(gw)).revision).toBe(start.revision);
      expect(await agentIds(gw)).toEqual(['main']);

      const res = await request(gw.url).post('/admin/config/reload').set(API_CLIENT).expect(200);
      expect(res.body).toEqual(expect.objectContaining({ status: 'applied', revision: expect.not.stringMatching(start.revision) }));
      expect(await agentIds(gw)).toEqual(['main', 'later']);
      expect((await status(gw)).revision).toBe(res.body.revision);
    }, 15_000);
  });

  describe('ConfigWriter', () => {
    const ROOT = `{
  // top comment: keep me
  ${FAST},
  agents: {
    list: [
      { id: "main" }, // trailing comment on main
    ],
  },
  /* block comment before tools */
  tools: { $include: "tools.json5" },
}
`;
    let gw: TestGateway;
    let writer: ConfigWriter;
    beforeAll(async () => {
      gw = await startTestGateway(ROOT, { files: { 'tools.json5': '{ agentToAgent: { enabled: false } }' } });
      writer = gw.app.get(ConfigWriter);
    });
    afterAll(() => gw.stop());

    /** Runs the write and returns the AppError it must throw, as the admin API would answer it. */
    async function refused(promise: Promise<unknown>) {
      const err = await promise.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(AppError);
      return problemFromAppError(err as AppError);
    }

    it('refuses a stale If-Match with 412 and writes nothing', async () => {
      const before = await fs.readFile(gw.configPath, 'utf8');
      const err = await refused(
        writer.write([{ op: 'set', path: ['agents', 'list', 1], value: { id: 'x' } }], { ifMatch: '000000000000' }),
      );
      expect(err.status).toBe(412);
      expect(err.detail).toContain('000000000000');
      expect(await fs.readFile(gw.configPath, 'utf8')).toBe(before);
    });

    it('refuses an edit that makes the config invalid with 422 listing the errors, and writes nothing', async () => {
      const before = await fs.readFile(gw.configPath, 'utf8');
      const { revision } = await status(gw);
      const err = await refused(
        writer.write([{ op: 'set', path: ['agents', 'list', 0, 'modle'], value: 'echo/x' }], { ifMatch: revision }),
      );
      expect(err.status).toBe(422);
      expect(err.errors).toContainEqual(expect.objectContaining({ path: 'agents.list[0].modle', severity: 'error' }));
      expect(await fs.readFile(gw.configPath, 'utf8')).toBe(before);
      expect((await status(gw)).revision).toBe(revision);
    });

    it('refuses an edit under an $include-d key with 409 naming the file', async () => {
      const before = await fs.readFile(gw.configPath, 'utf8');
      const fragment = path.join(gw.dir, 'tools.json5');
      const fragmentBefore = await fs.readFile(fragment, 'utf8');
      const err = await refused(writer.write([{ op: 'set', path: ['tools', 'agentToAgent', 'enabled'], value: true }]));
      expect(err.status).toBe(409);
      expect(err.detail).toContain(await fs.realpath(fragment));
      expect(await fs.readFile(gw.configPath, 'utf8')).toBe(before);
      expect(await fs.readFile(fragment, 'utf8')).toBe(fragmentBefore);
    });

    it('writes with comments intact, applies at once, and does not apply its own watcher event again', async () => {
      const store = gw.app.get(ConfigStore);
      let appliedEvents = 0;
      const unsubscribe = store.onApplied(() => appliedEvents++);
      try {
        const counts = await reloadCounts(gw);
        const { revision } = await status(gw);
        const result = await writer.write([{ op: 'set', path: ['agents', 'list', 1], value: { id: 'writer', name: 'Written' } }], {
          ifMatch: revision,
        });
        expect(result.previousRevision).toBe(revision);
        expect(result.revision).not.toBe(revision);
        expect(result.outcome.status).toBe('applied');
        // Applied before write() returned, not by the watcher later.
        expect(store.current().revision).toBe(result.revision);
        expect(await agentIds(gw)).toEqual(['main', 'writer']);

        const text = await fs.readFile(gw.configPath, 'utf8');
        for (const kept of [
          '// top comment: keep me',
          '{ id: "main" }, // trailing comment on main',
          '/* block comment before tools */',
          'tools: { $include: "tools.json5" },',
        ]) {
          expect(text).toContain(kept);
        }
        expect(text).toContain('writer');

        // The rename fires the watcher; that reload must find the same content and count as "unchanged".
        await waitFor('the watcher to see the write', async () => (await reloadCounts(gw)).unchanged > counts.unchanged || undefined, 5000);
        const after = await reloadCounts(gw);
        expect(after.applied).toBe(counts.applied + 1);
        expect(after.rejected).toBe(counts.rejected);
        expect(appliedEvents).toBe(1);
        expect((await status(gw)).revision).toBe(result.revision);
      } finally {
        unsubscribe();
      }
    }, 15_000);
  });
});
