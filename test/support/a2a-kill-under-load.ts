import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { CliBuild } from '../fixtures/cli-runner';
import { check, ok, request, ResponseError, TransportError } from '../fixtures/crash-harness';
import { GatewayProcess } from '../fixtures/gateway-process';

/**
 * kill -9 in the middle of a stream of blocking A2A SendMessage calls (a new context per message, a few in
 * flight at once), then a restart on the same state dir: every task whose answer reached this process (HTTP
 * 200 with a COMPLETED task) must still be there — GetTask returns it with the same state and artifact — and
 * so must its session (`agent:<agent>:a2a:default:direct:<peer>:<contextId>`, docs/a2a.md#session-isolation),
 * listed by GET /admin/sessions and holding both transcript lines: the peer's message and the agent's reply.
 *
 * A blocking SendMessage answers only after the run has settled, so an acknowledged task is one whose row and
 * transcript lines were written. Requests cut by the kill may have happened or not; they are not checked.
 */

const PEER = 'hermes';
const TOKEN = 'kill-under-load-peer-token-000001';
const AGENT = 'main';
const TOTAL = 200;
const KILL_AFTER = 80;

const replyTo = (text: string) => `[${AGENT}] ${text}`;
const sessionKeyOf = (contextId: string) => `agent:${AGENT}:a2a:default:direct:${PEER}:${contextId}`.toLowerCase();

interface Ack {
  taskId: string;
  contextId: string;
  text: string;
  state: string;
  artifact: string;
}

interface SessionEntry {
  sessionKey: string;
  agentId: string;
}

async function rpc(url: string, method: string, params: unknown, id: number | string = 1) {
  return request(`${url}/a2a/v1`, {
    headers: { Authorization: `Bearer ${TOKEN}` },
    body: { jsonrpc: '2.0', id, method, params },
  });
}

/** Polls `probe` until it returns a value (not undefined) or `timeoutMs` passes. */
async function pollUntil<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: Error | undefined;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      last = err as Error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${last.message}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Every session of `agentId`, following nextCursor when the list pages. */
async function allSessions(url: string, agentId: string): Promise<Map<string, SessionEntry>> {
  const found = new Map<string, SessionEntry>();
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const query = `agentId=${agentId}&limit=500${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const body = ok(await request(`${url}/admin/sessions?${query}`), `GET /admin/sessions?${query}`).body as {
      sessions: SessionEntry[];
      nextCursor?: string;
    };
    for (const s of body.sessions) found.set(s.sessionKey, s);
    cursor = body.nextCursor;
    if (cursor === undefined) return found;
  }
  throw new ResponseError('GET /admin/sessions: more than 100 pages');
}

export interface KillUnderLoadSetup {
  build: CliBuild;
  /** A temp dir of the test's own: config, state dir and HOME go there. */
  dir: string;
  /** Blocking SendMessage calls in flight at once. */
  concurrency: number;
  /** The config's `gateway` section (JSON5), e.g. state on PostgreSQL and a cluster. */
  gatewayConfig?: string;
  env?: NodeJS.ProcessEnv;
  /** Each gateway started (the test stops whatever is left at its end); the load starts once it has settled. */
  gatewayStarted: (gateway: GatewayProcess) => void | Promise<void>;
  /** Called as the SIGKILL goes out; what it answers (what was under way then) is returned with the outcome. */
  afterKillSent?: () => Promise<string | undefined>;
}

export interface KillUnderLoadOutcome {
  acked: number;
  cut: number;
  inFlight: string | undefined;
}

/** The run: load, kill -9, restart, every acknowledged task and transcript line checked (jest expectations). */
export async function killUnderLoad(setup: KillUnderLoadSetup): Promise<KillUnderLoadOutcome> {
  const { build, dir } = setup;
  const configPath = path.join(dir, 'openclaw.json');
  const stateDir = path.join(dir, 'state');
  await fs.writeFile(
    configPath,
    `{
      agents: { list: [{ id: "${AGENT}", default: true }] },
      channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { ${PEER}: { token: "${TOKEN}" } } } },
      ${setup.gatewayConfig ? `gateway: ${setup.gatewayConfig},` : ''}
    }`,
  );
  const options = { cliJs: build.cliJs, configPath, stateDir, home: dir, env: setup.env };
  const setGateway = async (g: GatewayProcess) => {
    await setup.gatewayStarted(g);
    return g;
  };
  const first = await setGateway(await GatewayProcess.start(options));

  const acked: Ack[] = [];
  let next = 0;
  let killing: Promise<void> | undefined;
  let cut = 0;
  let killedWhile: Promise<string | undefined> | undefined;
  await Promise.all(
    Array.from({ length: setup.concurrency }, async () => {
      while (!killing && next < TOTAL) {
        const i = next++;
        const text = `kill under load, message ${i}`;
        let reply;
        try {
          reply = await rpc(first.url, 'SendMessage', { message: { messageId: `m-${i}`, role: 'ROLE_USER', parts: [{ text }] } }, i);
        } catch (err) {
          // The kill cuts the requests in flight: not acknowledged, so not checked.
          if (killing && err instanceof TransportError) {
            cut++;
            return;
          }
          throw err;
        }
        // A whole answer is an acknowledgement, even one that arrives just after the kill was sent.
        const task = ok(reply, `SendMessage ${i}`).body?.result?.task;
        check(
          task?.status?.state === 'TASK_STATE_COMPLETED' && task.artifacts?.[0]?.parts?.[0]?.text === replyTo(text),
          `SendMessage ${i} answered ${JSON.stringify(reply.body).slice(0, 400)}`,
        );
        check(typeof task.contextId === 'string' && task.contextId.length > 0, `SendMessage ${i}: task without contextId`);
        acked.push({
          taskId: task.id,
          contextId: task.contextId,
          text,
          state: task.status.state,
          artifact: task.artifacts[0].parts[0].text,
        });
        // SIGKILL goes out synchronously here, while the other workers' requests are in flight.
        if (acked.length === KILL_AFTER) {
          killing = first.kill9();
          killedWhile = setup.afterKillSent?.();
        }
      }
    }),
  );
  check(killing, `the load finished (${acked.length} acknowledged) before the kill`);
  await killing;
  const inFlight = await killedWhile;
  expect(acked.length).toBeGreaterThanOrEqual(KILL_AFTER);
  expect(new Set(acked.map((a) => a.contextId)).size).toBe(acked.length);

  const second = await setGateway(await GatewayProcess.start(options));
  await pollUntil('/readyz to answer 200', async () => ((await request(`${second.url}/readyz`)).status === 200 ? true : undefined), 15_000);

  // Every acknowledged task, as it was acknowledged.
  const lostTasks: string[] = [];
  for (const ack of acked) {
    const answer = ok(await rpc(second.url, 'GetTask', { id: ack.taskId }), `GetTask ${ack.taskId}`).body;
    const task = answer.result;
    if (
      task?.id !== ack.taskId ||
      task.contextId !== ack.contextId ||
      task.status?.state !== ack.state ||
      task.artifacts?.[0]?.parts?.[0]?.text !== ack.artifact
    ) {
      lostTasks.push(`${ack.taskId} (${ack.text}): ${JSON.stringify(answer).slice(0, 300)}`);
    }
  }
  expect(lostTasks).toEqual([]);

  // Every session those tasks name, listed and with both transcript lines.
  const sessions = await allSessions(second.url, AGENT);
  const lostSessions: string[] = [];
  for (const ack of acked) {
    const key = sessionKeyOf(ack.contextId);
    if (!sessions.has(key)) {
      lostSessions.push(`${key}: not listed by GET /admin/sessions?agentId=${AGENT}`);
      continue;
    }
    const history = ok(await request(`${second.url}/admin/sessions/${encodeURIComponent(key)}/history?limit=1000`), `history of ${key}`)
      .body as { lines: Array<{ role: string; text: string }>; warnings: string[] };
    const hasUser = history.lines.some((l) => l.role === 'user' && l.text === ack.text);
    const hasReply = history.lines.some((l) => l.role === 'assistant' && l.text === ack.artifact);
    if (!hasUser || !hasReply) {
      lostSessions.push(
        `${key}: ${hasUser ? '' : 'no user line '}${hasReply ? '' : 'no assistant line '}— ${JSON.stringify(history).slice(0, 300)}`,
      );
    }
  }
  expect(lostSessions).toEqual([]);

  // And the restarted gateway keeps serving.
  const after = ok(
    await rpc(second.url, 'SendMessage', {
      message: { messageId: 'm-after', role: 'ROLE_USER', parts: [{ text: 'after the restart' }] },
    }),
    'SendMessage after the restart',
  ).body.result?.task;
  expect(after?.status?.state).toBe('TASK_STATE_COMPLETED');
  expect(after.artifacts[0].parts[0].text).toBe(replyTo('after the restart'));
  console.log(`${acked.length} acknowledged before the kill, ${cut} cut by it, ${TOTAL - next} never sent; all acknowledged found`);
  expect((await second.stop()).clean).toBe(true);
  return { acked: acked.length, cut, inFlight };
}
