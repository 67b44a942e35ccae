/**
 * sessions_send round trips per second with the echo model: the internal overhead of the agent-to-agent
 * flow (resolve, guard, round-one run on the nested lane, transcript writes, wait). Its peer, measured in
 * the same run, is a plain run of the same echo agent (AgentRunner.startRun) — the ratio is what the
 * agent-to-agent machinery costs on top of a run.
 */
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// Before the app is imported: the logger reads its level once.
process.env.CLAWGATE_LOG_LEVEL = process.env.CLAWGATE_LOG_LEVEL || 'silent';

const CONFIG = `{
  agents: { list: [{ id: "a" }, { id: "b" }] },
  tools: { agentToAgent: { enabled: true }, sessions: { visibility: "all" } },
  // no ping-pong, so one sessions_send is one round trip; announce runs in the background
  session: { agentToAgent: { maxPingPongTurns: 0 } },
}`;

async function measure(label: string, total: number, concurrency: number, once: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await once(next++);
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const rate = total / seconds;
  console.log(`${label.padEnd(44)} ${rate.toFixed(0).padStart(7)} /s  (${total} in ${seconds.toFixed(2)} s, concurrency ${concurrency})`);
  return rate;
}

async function main(): Promise<void> {
  const { startGateway } = await import('../src/bootstrap');
  const { AgentRunner } = await import('../src/modules/runtime');
  const { SessionsSendService } = await import('../src/modules/session-tools');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-bench-a2a-'));
  await fs.writeFile(path.join(dir, 'openclaw.json'), CONFIG);
  const gw = await startGateway({
    configPath: path.join(dir, 'openclaw.json'),
    stateDir: path.join(dir, 'state'),
    portOverride: 0,
    env: { HOME: dir },
  });
  const send = gw.app.get(SessionsSendService);
  const runner = gw.app.get(AgentRunner);
  try {
    // Warm up both paths (workspace creation, index files, JIT).
    for (let i = 0; i < 50; i++) {
      await runner.startRun({ sessionKey: `agent:b:warm-${i % 4}`, message: 'warm' }).done;
      await send.send({ sessionKey: `agent:a:warm-${i % 4}` }, { sessionKey: `agent:b:w-${i % 4}`, message: 'warm' });
    }
    for (const concurrency of [1, 8]) {
      const total = 1000;
      const plain = await measure(
        'plain echo run (peer)',
        total,
        concurrency,
        (i) => runner.startRun({ sessionKey: `agent:b:plain-${i % concurrency}`, message: `hello ${i}` }).done,
      );
      const a2a = await measure('sessions_send a → b round trip', total, concurrency, async (i) => {
        const r = await send.send(
          { sessionKey: `agent:a:s-${i % concurrency}` },
          { sessionKey: `agent:b:t-${i % concurrency}`, message: `hello ${i}` },
        );
        if (r.status !== 'ok') throw new Error(`unexpected ${JSON.stringify(r)}`);
      });
      console.log(`ratio sessions_send / plain run at concurrency ${concurrency}: ${(a2a / plain).toFixed(2)}\n`);
    }
  } finally {
    await gw.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
