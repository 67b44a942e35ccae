import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import JSON5 from 'json5';
import { A2A_MESSAGES } from '../../src/modules/a2a-channel/protocol/limits-and-messages';
import { taskDatabasePath } from '../../src/modules/a2a-channel/store/sqlite/sqlite-task.store';
import type { TaskRow } from '../../src/modules/a2a-channel/store/sqlite/sqlite-task-schema';
import { loadConfig } from '../../src/modules/config/pipeline/load-config';
import { memoryIndexPath, sharedVectorsPath } from '../../src/modules/memory/memory.service';
import { sessionDatabasePath } from '../../src/modules/sessions/session-database';
import { ECHO_MAX_CHARS } from '../../src/modules/runtime/providers/echo.provider';
import { CliBuild, transpileCli } from '../fixtures/cli-runner';
import {
  check,
  CrashIteration,
  crashSettings,
  inParallel,
  LoadWorker,
  ok,
  request,
  ResponseError,
  Rng,
  runCrashLoop,
  sleep,
} from '../fixtures/crash-harness';
import { GatewayProcess } from '../fixtures/gateway-process';

/**
 * kill -9 at random points while the gateway writes, then restart on the same state dir and check that
 * nothing it acknowledged is gone: sessions and transcript lines, A2A tasks, config edits made through the
 * admin API, the memory index. Each mode runs CRASH_ITERATIONS [5] kill → restart cycles on one state dir;
 * CRASH_SEED replays the random choices (delays, operations) of a run. See docs/reliability.md.
 *
 * "Acknowledged" = the whole 2xx response reached this process before the kill. Requests cut by the kill are
 * allowed to have happened or not, never to have half-happened.
 */

const settings = crashSettings();
// Long runs (CRASH_ITERATIONS=50) need minutes per mode; an iteration takes a few seconds.
const TIMEOUT_MS = 60_000 + settings.iterations * 20_000;

let build: CliBuild;
let root: string;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-crash-'));
  build = await transpileCli();
  console.log(
    `crash suite: seed ${settings.seed}, ${settings.iterations} iteration(s) per mode ` +
      `(replay with CRASH_SEED=${settings.seed} CRASH_ITERATIONS=${settings.iterations})`,
  );
}, 120_000);
afterAll(async () => {
  await build?.remove();
  await fs.rm(root, { recursive: true, force: true });
});

async function modeDir(mode: string): Promise<string> {
  const dir = path.join(root, mode);
  await fs.mkdir(dir, { recursive: true });
  return dir;
}

/** One random stream per mode, so a mode run alone (-t) makes the same choices as in the full suite. */
const modeRng = (salt: number) => new Rng(settings.seed).fork(salt);

// ---------------------------------------------------------------------------------------------- SQLite

interface ReadOnlyDb {
  prepare(sql: string): { get(...p: unknown[]): unknown; all(...p: unknown[]): unknown[] };
  pragma(sql: string, options?: { simple?: boolean }): unknown;
  close(): void;
}

/**
 * The database as the killed process left it, read-only: no checkpoint and no WAL cleanup on close, so the
 * restarted gateway still does its own recovery.
 */
function openReadOnly(file: string): ReadOnlyDb {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Database = require('better-sqlite3') as new (f: string, o: { readonly: boolean; fileMustExist: boolean }) => ReadOnlyDb;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  const integrity = db.pragma('integrity_check', { simple: true });
  if (integrity !== 'ok') {
    db.close();
    throw new ResponseError(`${file}: integrity_check says ${JSON.stringify(integrity)}`);
  }
  return db;
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// -------------------------------------------------------------------------------------------- sessions

const HTTP_TOKEN = 'crash-http-token-0000000000000001';

const SESSIONS_CONFIG = `// crash suite: sessions and transcripts
{
  // The most children OpenClaw's cap allows: six workers spawn from one session, and this suite is about what a kill keeps.
  agents: { defaults: { subagents: { maxChildrenPerAgent: 20 } }, list: [{ id: "main", default: true }, { id: "helper" }] },
  session: { dmScope: "per-peer", agentToAgent: { maxPingPongTurns: 0 } },
  tools: { agentToAgent: { enabled: true, allow: ["main", "helper"] }, sessions: { visibility: "all" } },
  channels: { http: { enabled: true, accounts: { crash: { token: "${HTTP_TOKEN}" } } } },
}
`;

interface RunAck {
  sessionKey: string;
  runId: string;
  user: string;
  reply: string;
  iteration: number;
}

interface SpawnAck {
  label: string;
  spawnedBy: string;
  iteration: number;
}

describe('kill -9 during session writes (http channel, sessions_spawn, sessions_send)', () => {
  it(
    'keeps every acknowledged session, label and transcript line',
    async () => {
      const dir = await modeDir('sessions');
      const configPath = path.join(dir, 'openclaw.json');
      const stateDir = path.join(dir, 'state');
      await fs.writeFile(configPath, SESSIONS_CONFIG);

      const runs: RunAck[] = [];
      const spawned = new Map<string, SpawnAck>();
      /** sessionId per key as first seen: a different one later means the transcript was replaced. */
      const sessionIds = new Map<string, string>();
      const peers: string[] = [];
      let peerCount = 0;
      const acked = () => `${runs.length} runs and ${spawned.size} spawned sessions acknowledged so far`;
      const agentOf = (key: string) => key.split(':')[1];
      const REQUESTER = 'agent:main:main';

      const op = async (gw: GatewayProcess, w: LoadWorker): Promise<void> => {
        const roll = w.rng.next();
        if (roll < 0.7) {
          let peer: string;
          if (!peers.length || w.rng.chance(0.35)) peers.push((peer = `p${w.it.iteration}-${peerCount++}`));
          else peer = w.rng.pick(peers.slice(-30));
          // Now and then a long line, so appends are not all tiny.
          const text = w.rng.chance(0.15) ? `${w.rng.token('m')} ${'lorem ipsum '.repeat(w.rng.int(100, 1500))}`.trim() : w.rng.token('m');
          const reply = ok(
            await request(`${gw.url}/channels/http/messages`, {
              headers: { Authorization: `Bearer ${HTTP_TOKEN}` },
              body: { peer: { kind: 'direct', id: peer }, text },
            }),
            'http message',
          );
          check(
            reply.body.status === 'completed' &&
              reply.body.reply === `[main] ${text.slice(0, ECHO_MAX_CHARS)}` &&
              reply.body.sessionKey === `agent:main:direct:${peer}`,
            `http message answered ${JSON.stringify(reply.body).slice(0, 300)}`,
          );
          runs.push({
            sessionKey: reply.body.sessionKey,
            runId: reply.body.runId,
            user: text,
            reply: reply.body.reply,
            iteration: w.it.iteration,
          });
        } else if (roll < 0.85 || spawned.size === 0) {
          const label = w.rng.token('l');
          const agentId = w.rng.chance(0.5) ? 'helper' : 'main';
          const reply = ok(
            await request(`${gw.url}/admin/sessions/${encodeURIComponent(REQUESTER)}/spawn`, {
              body: { task: w.rng.token('task'), label, agentId },
            }),
            'sessions_spawn',
          );
          check(
            reply.body.status === 'accepted' && String(reply.body.childSessionKey).startsWith(`agent:${agentId}:subagent:`),
            `sessions_spawn answered ${JSON.stringify(reply.body)}`,
          );
          spawned.set(reply.body.childSessionKey, { label, spawnedBy: REQUESTER, iteration: w.it.iteration });
        } else {
          const target = w.rng.pick([...spawned.keys()].slice(-30));
          const message = w.rng.token('ask');
          const reply = ok(
            await request(`${gw.url}/admin/sessions/${encodeURIComponent(REQUESTER)}/send`, {
              body: { sessionKey: target, message, timeoutSeconds: 30 },
            }),
            'sessions_send',
          );
          check(
            reply.body.status === 'ok' && reply.body.reply === `[${agentOf(target)}] ${message}`,
            `sessions_send answered ${JSON.stringify(reply.body)}`,
          );
          runs.push({ sessionKey: target, runId: reply.body.runId, user: message, reply: reply.body.reply, iteration: w.it.iteration });
        }
      };

      const checkDisk = async (): Promise<void> => {
        // Read straight from the database file the killed process left (WAL included), as a second process would.
        const onDisk = new Map<string, string>();
        const file = sessionDatabasePath(stateDir);
        if (await exists(file)) {
          const db = openReadOnly(file);
          try {
            const rows = db.prepare('SELECT session_key, session_id FROM sessions').all() as Array<{
              session_key: string;
              session_id: string;
            }>;
            for (const row of rows) onDisk.set(row.session_key, row.session_id);
          } finally {
            db.close();
          }
        }
        const keys = new Set([...runs.map((r) => r.sessionKey), ...spawned.keys()]);
        for (const key of keys) {
          check(onDisk.has(key), `acknowledged session ${key} is not in the session database after the kill (${acked()})`);
          const known = sessionIds.get(key);
          check(
            known === undefined || known === onDisk.get(key),
            `session ${key} changed its sessionId from ${known} to ${onDisk.get(key)}`,
          );
        }
      };

      const checkLive = async (gw: GatewayProcess, it: CrashIteration): Promise<void> => {
        // Opens both agents' indexes (and with that clears what an interrupted index write left).
        for (const agentId of ['main', 'helper'])
          ok(await request(`${gw.url}/admin/sessions?agentId=${agentId}&limit=500`), `list ${agentId}`);
        const last = it.iteration === settings.iterations - 1;
        const byKey = new Map<string, RunAck[]>();
        for (const r of runs) byKey.set(r.sessionKey, [...(byKey.get(r.sessionKey) ?? []), r]);
        const allKeys = [...new Set([...byKey.keys(), ...spawned.keys()])];
        // This iteration's sessions every time, a sample of the older ones, and all of them at the end.
        const touched = (key: string) =>
          (byKey.get(key) ?? []).some((r) => r.iteration === it.iteration) || spawned.get(key)?.iteration === it.iteration;
        const older = allKeys.filter((k) => !touched(k));
        const keys = last
          ? allKeys
          : [...allKeys.filter(touched), ...Array.from({ length: Math.min(10, older.length) }, () => it.rng.pick(older))];
        await inParallel([...new Set(keys)], 8, async (key) => {
          const entry = ok(await request(`${gw.url}/admin/sessions/${encodeURIComponent(key)}`), `session ${key}`).body;
          const known = sessionIds.get(key);
          check(
            known === undefined || known === entry.sessionId,
            `session ${key} changed its sessionId from ${known} to ${entry.sessionId}`,
          );
          sessionIds.set(key, entry.sessionId);
          const spawn = spawned.get(key);
          if (spawn) {
            check(entry.label === spawn.label, `spawned session ${key} has label ${entry.label}, acknowledged ${spawn.label}`);
            check(entry.spawnedBy === spawn.spawnedBy, `spawned session ${key} has spawnedBy ${entry.spawnedBy}`);
          }
          const expectedRuns = byKey.get(key) ?? [];
          if (!expectedRuns.length) return;
          const history = ok(
            await request(`${gw.url}/admin/sessions/${encodeURIComponent(key)}/history?limit=1000&includeTools=true`),
            `history of ${key}`,
          ).body as { lines: Array<{ role: string; text: string; runId?: string }>; warnings: string[] };
          for (const run of expectedRuns) {
            const user = history.lines.findIndex((l) => l.role === 'user' && l.runId === run.runId);
            const assistant = history.lines.findIndex((l) => l.role === 'assistant' && l.runId === run.runId);
            check(user >= 0, `${key}: the user line of acknowledged run ${run.runId} (iteration ${run.iteration + 1}) is missing`);
            check(assistant > user, `${key}: the reply of acknowledged run ${run.runId} is missing or before its message`);
            check(history.lines[user].text === run.user, `${key}: run ${run.runId} user line differs from what was sent`);
            check(history.lines[assistant].text === run.reply, `${key}: run ${run.runId} reply line differs from the acknowledged reply`);
          }
        });
      };

      const report = await runCrashLoop({
        mode: 'sessions',
        settings,
        rng: modeRng(1),
        gateway: { cliJs: build.cliJs, configPath, stateDir, home: dir },
        workers: 6,
        killAfterMs: [150, 1200],
        op,
        checkDisk,
        checkLive,
        tempRoots: [dir],
        describe: acked,
      });
      console.log(report.lines.join('\n'));
      expect(runs.length).toBeGreaterThan(0);
      expect(report.stop?.clean).toBe(true);
    },
    TIMEOUT_MS,
  );
});

// ------------------------------------------------------------------------------------------ A2A tasks

const PEERS = { hermes: 'crash-hermes-token-000000000001', iris: 'crash-iris-token-00000000000002' } as const;
type PeerName = keyof typeof PEERS;

const A2A_CONFIG = `// crash suite: A2A tasks
{
  agents: { list: [{ id: "main", default: true }] },
  channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { hermes: { token: "${PEERS.hermes}" }, iris: { token: "${PEERS.iris}" } } } },
}
`;

/** Below the per-peer cap on kept terminal tasks (500), so retention never drops a task this iteration acknowledged. */
const TASKS_PER_PEER_PER_ITERATION = 400;

interface TaskAck {
  peer: PeerName;
  contextId: string;
  text: string;
  /** The state the SendMessage answer reported. */
  state: 'TASK_STATE_WORKING' | 'TASK_STATE_COMPLETED';
  iteration: number;
}

describe('kill -9 during A2A task writes (SendMessage load)', () => {
  it(
    'keeps every acknowledged task: finished ones with their result, unfinished ones FAILED with the restart message',
    async () => {
      const dir = await modeDir('a2a');
      const configPath = path.join(dir, 'openclaw.json');
      const stateDir = path.join(dir, 'state');
      await fs.writeFile(configPath, A2A_CONFIG);

      const tasks = new Map<string, TaskAck>();
      const sent = new Map<string, number>();
      const sharedContexts: Record<PeerName, string[]> = { hermes: [], iris: [] };
      const reply = (text: string) => `[main] ${text}`;
      const thisIteration = (it: CrashIteration) => [...tasks].filter(([, t]) => t.iteration === it.iteration);

      const op = async (gw: GatewayProcess, w: LoadWorker): Promise<void> => {
        const peer = w.rng.pick(Object.keys(PEERS) as PeerName[]);
        const auth = { Authorization: `Bearer ${PEERS[peer]}` };
        const budgetKey = `${w.it.iteration}:${peer}`;
        const batch = w.rng.chance(0.15) ? w.rng.int(2, 6) : 1;
        if ((sent.get(budgetKey) ?? 0) + batch > TASKS_PER_PEER_PER_ITERATION) {
          // Budget spent: reads only — of this iteration's tasks: earlier ones may have been dropped by the
          // per-peer cap since.
          const mine = [...tasks].filter(([, t]) => t.peer === peer && t.iteration === w.it.iteration);
          if (!mine.length) return sleep(10);
          const [id] = w.rng.pick(mine);
          const got = ok(
            await request(`${gw.url}/a2a/v1`, { headers: auth, body: { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id } } }),
            'GetTask',
          );
          check(got.body.result?.id === id, `GetTask ${id} answered ${JSON.stringify(got.body).slice(0, 300)}`);
          return;
        }
        sent.set(budgetKey, (sent.get(budgetKey) ?? 0) + batch);
        // Batches and fire-and-forget tasks return before the run; blocking ones after it settled.
        const immediate = batch > 1 || w.rng.chance(0.5);
        const calls = Array.from({ length: batch }, (_, i) => {
          let contextId: string;
          if (w.rng.chance(0.4) || sharedContexts[peer].length < 3) {
            contextId = w.rng.token('ctx');
            if (sharedContexts[peer].length < 3) sharedContexts[peer].push(contextId);
          } else contextId = w.rng.pick(sharedContexts[peer]);
          const text = w.rng.token('task');
          return {
            text,
            contextId,
            rpc: {
              jsonrpc: '2.0',
              id: i + 1,
              method: 'SendMessage',
              params: {
                message: { messageId: w.rng.token('msg'), role: 'ROLE_USER', contextId, parts: [{ text }] },
                ...(immediate ? { configuration: { returnImmediately: true } } : {}),
              },
            },
          };
        });
        const answer = ok(
          await request(`${gw.url}/a2a/v1`, { headers: auth, body: batch > 1 ? calls.map((c) => c.rpc) : calls[0].rpc }),
          'SendMessage',
        );
        const results = (batch > 1 ? answer.body : [answer.body]) as Array<{
          id: number;
          result?: { task: Record<string, any> };
          error?: unknown;
        }>;
        check(
          Array.isArray(results) && results.length === batch,
          `SendMessage batch of ${batch} answered ${JSON.stringify(answer.body).slice(0, 300)}`,
        );
        for (const call of calls) {
          const task = results.find((r) => r.id === call.rpc.id)?.result?.task;
          check(task && task.contextId === call.contextId, `SendMessage answered ${JSON.stringify(results).slice(0, 300)}`);
          if (immediate) check(task.status.state === 'TASK_STATE_WORKING', `returnImmediately answered state ${task.status.state}`);
          else {
            check(task.status.state === 'TASK_STATE_COMPLETED', `blocking SendMessage answered state ${task.status.state}`);
            check(
              task.artifacts[0]?.parts[0]?.text === reply(call.text),
              `blocking SendMessage answered ${JSON.stringify(task.artifacts)}`,
            );
          }
          tasks.set(task.id as string, {
            peer,
            contextId: call.contextId,
            text: call.text,
            state: task.status.state,
            iteration: w.it.iteration,
          });
        }
      };

      const checkDisk = async (it: CrashIteration): Promise<void> => {
        const mine = thisIteration(it);
        if (!mine.length) return;
        const db = openReadOnly(taskDatabasePath(stateDir));
        try {
          const get = db.prepare('SELECT * FROM tasks WHERE id = ?');
          for (const [id, ack] of mine) {
            const row = get.get(id) as TaskRow | undefined;
            check(row, `acknowledged task ${id} (${ack.state}) is not in tasks.sqlite after the kill`);
            check(row.peer === ack.peer && row.context_id === ack.contextId, `task ${id} has peer ${row.peer} / context ${row.context_id}`);
            if (ack.state === 'TASK_STATE_COMPLETED' || row.state === 'TASK_STATE_COMPLETED') {
              check(row.state === 'TASK_STATE_COMPLETED', `task ${id} was acknowledged COMPLETED but is ${row.state} on disk`);
              check(row.artifact_text === reply(ack.text), `task ${id}: stored artifact ${JSON.stringify(row.artifact_text)}`);
            } else check(row.state === 'TASK_STATE_WORKING', `task ${id} was acknowledged WORKING but is ${row.state} on disk`);
          }
        } finally {
          db.close();
        }
      };

      const checkLive = async (gw: GatewayProcess, it: CrashIteration): Promise<void> => {
        ok(await request(`${gw.url}/admin/a2a/tasks?limit=5`), 'list tasks');
        ok(await request(`${gw.url}/admin/sessions?agentId=main&limit=5`), 'list sessions');
        let transcripts = 0;
        await inParallel(thisIteration(it), 8, async ([id, ack]) => {
          const answer = ok(
            await request(`${gw.url}/a2a/v1`, {
              headers: { Authorization: `Bearer ${PEERS[ack.peer]}` },
              body: { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id } },
            }),
            'GetTask',
          );
          const task = answer.body.result;
          check(
            task?.id === id && task.contextId === ack.contextId,
            `GetTask ${id} after the restart answered ${JSON.stringify(answer.body).slice(0, 300)}`,
          );
          if (task.status.state === 'TASK_STATE_COMPLETED') {
            check(task.artifacts[0]?.parts[0]?.text === reply(ack.text), `task ${id}: artifact ${JSON.stringify(task.artifacts)}`);
            // The transcript of a finished task has both lines (a sample: one history read per task is slow).
            if (transcripts++ < 15) {
              const summary = ok(await request(`${gw.url}/admin/a2a/tasks/${id}`), `admin task ${id}`).body;
              const history = ok(
                await request(`${gw.url}/admin/sessions/${encodeURIComponent(summary.sessionKey)}/history?limit=1000`),
                `history of ${summary.sessionKey}`,
              ).body as { lines: Array<{ role: string; text: string; runId?: string }> };
              const lines = history.lines.filter((l) => l.runId === summary.runId);
              check(
                lines.some((l) => l.role === 'user' && l.text === ack.text) &&
                  lines.some((l) => l.role === 'assistant' && l.text === reply(ack.text)),
                `task ${id} is COMPLETED but its transcript lines are missing in ${summary.sessionKey}`,
              );
            }
          } else {
            check(
              ack.state === 'TASK_STATE_WORKING',
              `task ${id} was acknowledged COMPLETED but is ${task.status.state} after the restart`,
            );
            check(
              task.status.state === 'TASK_STATE_FAILED' && task.status.message?.parts?.[0]?.text === A2A_MESSAGES.restarted,
              `unfinished task ${id} is ${task.status.state} after the restart: ${JSON.stringify(task.status)}`,
            );
          }
        });
      };

      const report = await runCrashLoop({
        mode: 'a2a',
        settings,
        rng: modeRng(2),
        gateway: { cliJs: build.cliJs, configPath, stateDir, home: dir },
        workers: 8,
        killAfterMs: [150, 1200],
        op,
        checkDisk,
        checkLive,
        tempRoots: [dir],
        describe: () => `${tasks.size} tasks acknowledged so far`,
      });
      console.log(report.lines.join('\n'));
      expect(tasks.size).toBeGreaterThan(0);
      expect(report.stop?.clean).toBe(true);
    },
    TIMEOUT_MS,
  );
});

// ---------------------------------------------------------------------------------------- config edits

const CONFIG_COMMENTS = ['// crash suite: config edits through the admin API', '// the agent every message goes to by default'];
const EDITED_CONFIG = `${CONFIG_COMMENTS[0]}
{
  agents: {
    list: [
      ${CONFIG_COMMENTS[1]}
      { id: "main", default: true },
    ],
  },
}
`;

type ConfigOp = { kind: 'create' | 'patch'; id: string; name: string } | { kind: 'delete'; id: string };

function applyConfigOp(agents: ReadonlyMap<string, string>, op: ConfigOp): Map<string, string> {
  const next = new Map(agents);
  if (op.kind === 'delete') next.delete(op.id);
  else next.set(op.id, op.name);
  return next;
}

const sameAgents = (a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>) =>
  a.size === b.size && [...a].every(([id, name]) => b.get(id) === name);
const showAgents = (a: ReadonlyMap<string, string>) => JSON.stringify(Object.fromEntries([...a].sort()));

describe('kill -9 during config writes by the admin API (POST/PATCH/DELETE /admin/agents with If-Match)', () => {
  it(
    'keeps every acknowledged edit, the comments and a valid file, and leaves no temp file',
    async () => {
      const dir = await modeDir('config');
      const configPath = path.join(dir, 'openclaw.json');
      const stateDir = path.join(dir, 'state');
      await fs.writeFile(configPath, EDITED_CONFIG);

      /** id → name of the agents the acknowledged edits made (besides "main"). */
      let agents = new Map<string, string>();
      /** The one write in flight (a single writer: each edit is based on the revision the previous one returned). */
      let pending: ConfigOp | undefined;
      let etag = '';
      let edits = 0;
      let created = 0;

      const readEtag = async (gw: GatewayProcess) => {
        const reply = ok(await request(`${gw.url}/admin/config`), 'GET /admin/config');
        etag = reply.headers.get('etag') ?? '';
        check(etag, 'GET /admin/config has no ETag');
      };

      const op = async (gw: GatewayProcess, w: LoadWorker): Promise<void> => {
        if (w.index > 0) {
          // Readers next to the writer: what an operator's dashboard does.
          const list = ok(await request(`${gw.url}/admin/agents`), 'GET /admin/agents');
          check(Array.isArray(list.body), 'GET /admin/agents is not a list');
          const status = ok(await request(`${gw.url}/admin/config/status`), 'GET /admin/config/status');
          check(status.body.lastError === null, `the gateway rejected its own edit: ${JSON.stringify(status.body.lastError)}`);
          return sleep(w.rng.int(5, 30));
        }
        const ids = [...agents.keys()];
        let next: ConfigOp;
        if (ids.length < 3 || (ids.length < 12 && w.rng.chance(0.4)))
          next = { kind: 'create', id: `c${w.it.iteration}n${created++}`, name: w.rng.token('name') };
        else if (w.rng.chance(0.7)) next = { kind: 'patch', id: w.rng.pick(ids), name: w.rng.token('name') };
        else next = { kind: 'delete', id: w.rng.pick(ids) };
        pending = next;
        const headers = { 'If-Match': etag };
        const url = `${gw.url}/admin/agents`;
        const reply = ok(
          next.kind === 'create'
            ? await request(url, { headers, body: { id: next.id, name: next.name } })
            : next.kind === 'patch'
              ? await request(`${url}/${next.id}`, { method: 'PATCH', headers, body: { name: next.name } })
              : await request(`${url}/${next.id}`, { method: 'DELETE', headers }),
          `${next.kind} agent ${next.id}`,
        );
        const revision = reply.headers.get('etag');
        check(revision && revision !== etag, `${next.kind} agent ${next.id} answered ETag ${revision} (was ${etag})`);
        etag = revision;
        agents = applyConfigOp(agents, next);
        pending = undefined;
        edits++;
      };

      /** The agents in the file as written now (besides "main"). */
      const agentsOnDisk = async (): Promise<Map<string, string>> => {
        const text = await fs.readFile(configPath, 'utf8');
        let doc: { agents?: { list?: Array<{ id: string; name?: string }> } };
        try {
          doc = JSON5.parse(text);
        } catch (err) {
          throw new ResponseError(`openclaw.json is not valid JSON5 after the kill: ${(err as Error).message}`);
        }
        for (const comment of CONFIG_COMMENTS) check(text.includes(comment), `openclaw.json lost the comment ${JSON.stringify(comment)}`);
        const list = doc.agents?.list ?? [];
        check(
          list.some((a) => a.id === 'main'),
          'openclaw.json lost agent "main"',
        );
        return new Map(list.filter((a) => a.id !== 'main').map((a) => [a.id, a.name ?? '']));
      };

      const checkDisk = async (): Promise<void> => {
        const loaded = await loadConfig({ configPath, stateDir, env: { HOME: dir } });
        check(loaded.ok, `openclaw.json does not load after the kill: ${JSON.stringify(loaded.ok ? [] : loaded.errors)}`);
        const onDisk = await agentsOnDisk();
        if (!sameAgents(onDisk, agents)) {
          // The write in flight at the kill may have landed whole; anything else is a lost or half edit.
          const landed = pending && applyConfigOp(agents, pending);
          check(
            landed && sameAgents(onDisk, landed),
            `openclaw.json after the kill has ${showAgents(onDisk)}; acknowledged ${showAgents(agents)}` +
              (pending ? `, in flight ${JSON.stringify(pending)}` : ''),
          );
          agents = landed;
        }
        pending = undefined;
        const lastGood = path.join(stateDir, 'openclaw.last-good.json');
        if (await exists(lastGood)) {
          try {
            JSON.parse(await fs.readFile(lastGood, 'utf8'));
          } catch (err) {
            throw new ResponseError(`openclaw.last-good.json is not valid JSON after the kill: ${(err as Error).message}`);
          }
        }
      };

      const checkLive = async (gw: GatewayProcess): Promise<void> => {
        const status = ok(await request(`${gw.url}/admin/config/status`), 'GET /admin/config/status').body;
        check(status.lastError === null, `the restarted gateway reports ${JSON.stringify(status.lastError)}`);
        const list = ok(await request(`${gw.url}/admin/agents`), 'GET /admin/agents').body as Array<{ id: string; name?: string }>;
        const served = new Map(list.filter((a) => a.id !== 'main').map((a) => [a.id, a.name ?? '']));
        check(sameAgents(served, agents), `the restarted gateway serves ${showAgents(served)}; acknowledged ${showAgents(agents)}`);
        await readEtag(gw);
      };

      const report = await runCrashLoop({
        mode: 'config',
        settings,
        rng: modeRng(3),
        gateway: { cliJs: build.cliJs, configPath, stateDir, home: dir },
        workers: 3,
        killAfterMs: [150, 1200],
        prepare: readEtag,
        op,
        checkDisk,
        checkLive,
        tempRoots: [dir],
        describe: () => `${edits} edits acknowledged so far, ${agents.size} agents`,
      });
      console.log(report.lines.join('\n'));
      expect(edits).toBeGreaterThan(0);
      expect(report.stop?.clean).toBe(true);
    },
    TIMEOUT_MS,
  );
});

// ----------------------------------------------------------------------------------------------- memory

interface Note {
  file: string;
  /** Every state the file went through, in order; `null` = deleted. */
  states: Array<{ hash: string; token: string } | null>;
  /** Index into `states` of the state a reindex acknowledged (the one on disk when it was requested). */
  acked?: number;
}

describe('kill -9 during memory indexing (files written while the indexer runs, reindex through the admin API)', () => {
  it(
    'opens a consistent index that holds every file as of the last acknowledged reindex',
    async () => {
      const dir = await modeDir('memory');
      const configPath = path.join(dir, 'openclaw.json');
      const stateDir = path.join(dir, 'state');
      const workspace = path.join(dir, 'ws');
      const memoryDir = path.join(workspace, 'memory');
      // Notes are written beside the collection and renamed into it, as editors do: the indexer reads whole files.
      const incoming = path.join(workspace, 'incoming');
      await fs.mkdir(memoryDir, { recursive: true });
      await fs.mkdir(incoming, { recursive: true });
      await fs.writeFile(
        configPath,
        `// crash suite: memory indexing
{
  agents: { list: [{ id: "main", default: true, workspace: ${JSON.stringify(workspace)} }] },
  memory: { qmd: { update: { debounceMs: 50 } } },
}
`,
      );
      const indexFile = memoryIndexPath(stateDir, 'main');
      // Vectors live in the cache every agent's index shares.
      const vectorFile = sharedVectorsPath(stateDir);
      const journal = path.join(memoryDir, 'journal.md');
      /** Tokens appended to the journal, in order; `journalAcked` of them were on disk when a reindex was requested. */
      const journalTokens: string[] = [];
      let journalAcked = 0;
      const notes = new Map<string, Note>();
      let noteCount = 0;
      let reindexes = 0;

      // Short notes: every new chunk is embedded by the bundled model on the gateway's CPU before a reindex answers.
      const noteText = (rng: Rng, token: string) =>
        `# Note ${token}\n\n${token} is the marker of this version.\n\n${'Notes about the deploy, the build and the rollout. '.repeat(rng.int(1, 8))}\n`;

      const writeNote = async (rng: Rng, name: string): Promise<void> => {
        const token = rng.token('n');
        const text = noteText(rng, token);
        const staged = path.join(incoming, `${name}.part`);
        await fs.writeFile(staged, text);
        await fs.rename(staged, path.join(memoryDir, name));
        const note = notes.get(name) ?? { file: path.join(memoryDir, name), states: [] };
        note.states.push({ hash: sha256(text), token });
        notes.set(name, note);
      };

      const live = () => [...notes].filter(([, n]) => n.states[n.states.length - 1] !== null).map(([name]) => name);

      const op = async (gw: GatewayProcess, w: LoadWorker): Promise<void> => {
        if (w.index === 0) {
          // The writer: new notes, rewrites, deletions and journal appends, while the watcher indexes them.
          const roll = w.rng.next();
          const names = live();
          // At most 30 notes on disk, so a forced reindex stays short enough to finish between kills.
          if ((roll < 0.45 && names.length < 30) || names.length < 3) await writeNote(w.rng, `n${w.it.iteration}-${noteCount++}.md`);
          else if (roll < 0.7) await writeNote(w.rng, w.rng.pick(names));
          else if (roll < 0.8 || names.length >= 30) {
            const name = w.rng.pick(names);
            await fs.rm(path.join(memoryDir, name));
            notes.get(name)!.states.push(null);
          } else {
            const token = w.rng.token('j');
            await fs.appendFile(journal, `- ${token} noted\n`);
            journalTokens.push(token);
          }
          return sleep(w.rng.int(10, 60));
        }
        if (w.index === 1) {
          // Reindex: what is on disk when it is requested must be in the index when it answers.
          const snapshot = [...notes].map(([name, n]) => [name, n.states.length - 1] as const);
          const journalAt = journalTokens.length;
          const reply = ok(await request(`${gw.url}/admin/agents/main/memory/reindex`, { method: 'POST' }), 'reindex');
          check(reply.body.agentId === 'main' && typeof reply.body.indexed === 'number', `reindex answered ${JSON.stringify(reply.body)}`);
          for (const [name, state] of snapshot) notes.get(name)!.acked = Math.max(notes.get(name)!.acked ?? -1, state);
          journalAcked = Math.max(journalAcked, journalAt);
          reindexes++;
          return sleep(w.rng.int(20, 150));
        }
        const names = live();
        if (!names.length) return sleep(10);
        const state = notes.get(w.rng.pick(names))!.states.at(-1)!;
        const found = ok(await request(`${gw.url}/admin/agents/main/memory/search?q=${state.token}`), 'memory search');
        check(Array.isArray(found.body.results), `memory search answered ${JSON.stringify(found.body).slice(0, 300)}`);
        return sleep(w.rng.int(5, 40));
      };

      const checkDisk = async (): Promise<void> => {
        if (!(await exists(indexFile))) {
          check(reindexes === 0, 'index.sqlite is gone although reindexes were acknowledged');
          return;
        }
        const db = openReadOnly(indexFile);
        const vectors = (await exists(vectorFile)) ? openReadOnly(vectorFile) : undefined;
        try {
          const fileRow = db.prepare('SELECT id, hash FROM files WHERE path = ?');
          const chunkTexts = db.prepare('SELECT text, hash FROM chunks WHERE file_id = ?');
          const fingerprint = (db.prepare("SELECT value FROM meta WHERE key = 'fingerprint'").get() as { value: string } | undefined)
            ?.value;
          const embedded = vectors?.prepare('SELECT 1 FROM vectors WHERE hash = ? AND fingerprint = ?');
          for (const [name, note] of notes) {
            if (note.acked === undefined) continue;
            const row = fileRow.get(note.file) as { id: number; hash: string } | undefined;
            // Any state from the acknowledged one on is fine: the watcher may have indexed later writes.
            const allowed = note.states.slice(note.acked);
            if (!row) {
              check(allowed.includes(null), `${name}: acknowledged by a reindex but missing from the index after the kill`);
              continue;
            }
            const at = allowed.findIndex((s) => s?.hash === row.hash);
            check(at >= 0, `${name}: the index holds a version older than the acknowledged one (or none written)`);
            const chunks = chunkTexts.all(row.id) as Array<{ text: string; hash: string }>;
            check(
              chunks.some((c) => c.text.includes(allowed[at]!.token)),
              `${name}: indexed without the chunks of its content`,
            );
            if (at === 0 && fingerprint) {
              // This exact version was there when the reindex answered, and the answer waits for the vectors.
              const missing = chunks.filter((c) => !embedded?.get(c.hash, fingerprint));
              check(!missing.length, `${name}: ${missing.length} chunk(s) of the acknowledged version have no vector`);
            }
          }
          if (journalAcked) {
            const row = fileRow.get(journal) as { id: number } | undefined;
            check(row, 'journal.md is not in the index after the kill');
            const text = (chunkTexts.all(row.id) as Array<{ text: string }>).map((c) => c.text).join('\n');
            const lost = journalTokens.slice(0, journalAcked).filter((t) => !text.includes(t));
            check(!lost.length, `journal.md lost ${lost.length} acknowledged line(s) in the index, e.g. ${lost[0]}`);
          }
        } finally {
          db.close();
          vectors?.close();
        }
      };

      const checkLive = async (gw: GatewayProcess, it: CrashIteration): Promise<void> => {
        // Opens the index and brings it in line with the disk.
        const collections = ok(await request(`${gw.url}/admin/agents/main/memory/collections`), 'memory collections').body;
        check(Array.isArray(collections.collections), `memory collections answered ${JSON.stringify(collections)}`);
        const names = live();
        for (let i = 0; i < Math.min(4, names.length); i++) {
          const name = it.rng.pick(names);
          const state = notes.get(name)!.states.at(-1)!;
          const found = ok(await request(`${gw.url}/admin/agents/main/memory/search?q=${state.token}`), 'memory search').body as {
            results: Array<{ path: string }>;
          };
          check(
            found.results.some((r) => r.path === `memory/${name}`),
            `search for ${state.token} after the restart does not find memory/${name}: ${JSON.stringify(found.results.map((r) => r.path))}`,
          );
        }
      };

      const report = await runCrashLoop({
        mode: 'memory',
        settings,
        rng: modeRng(4),
        gateway: { cliJs: build.cliJs, configPath, stateDir, home: dir },
        workers: 3,
        killAfterMs: [200, 1500],
        // The first use opens the index and loads the embedding model (seconds): not what the kills are for.
        prepare: async (gw) => void ok(await request(`${gw.url}/admin/agents/main/memory/reindex`, { method: 'POST' }), 'first reindex'),
        op,
        checkDisk,
        checkLive,
        tempRoots: [dir],
        describe: () => `${notes.size} notes, ${journalTokens.length} journal lines, ${reindexes} reindexes acknowledged so far`,
      });
      console.log(report.lines.join('\n'));
      expect(notes.size).toBeGreaterThan(0);
      expect(report.stop?.clean).toBe(true);
    },
    TIMEOUT_MS,
  );
});

// ------------------------------------------------------------------------------- temp files of dead writers

describe('a restart after a kill between the temp write and the rename of an atomic write', () => {
  it('removes the temp files the dead process left next to openclaw.json and openclaw.last-good.json, and only those', async () => {
    const dir = await modeDir('stale-temps');
    const configPath = path.join(dir, 'openclaw.json');
    const stateDir = path.join(dir, 'state');
    await fs.mkdir(stateDir, { recursive: true });
    await fs.writeFile(configPath, '{ agents: { list: [{ id: "main" }] } }\n');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const stale = [
      path.join(dir, `.openclaw.json.${dead}.a1b2c3d4e5f6.tmp`),
      path.join(stateDir, `.openclaw.last-good.json.${dead}.0a1b2c3d4e5f.tmp`),
    ];
    // This test process is alive: its temp file may be a write in progress and must stay.
    const live = path.join(dir, `.openclaw.json.${process.pid}.ffffffffffff.tmp`);
    for (const file of [...stale, live]) await fs.writeFile(file, '{ half');

    const gw = await GatewayProcess.start({ cliJs: build.cliJs, configPath, stateDir, home: dir });
    try {
      ok(await request(`${gw.url}/healthz`), 'healthz');
      for (const file of stale) await expect(fs.access(file)).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(fs.readFile(live, 'utf8')).resolves.toBe('{ half');
    } finally {
      expect((await gw.stop()).clean).toBe(true);
    }
  }, 60_000);
});
