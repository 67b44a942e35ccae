import { formatConfigIssue, loadConfig, locateConfig } from '../modules/config';
import type { LocateOptions } from './cli-config-edit';

/**
 * `clawgate agents list`: the agents as the gateway would load them from this config. The first line (or the
 * `configPath`/`stateDir` fields with --json) says which config and state dir were used, since the CLI's
 * defaults (~/.openclaw) differ from `npm start`'s (./config, ./data).
 */
export async function runAgentsList(opts: LocateOptions & { bindings?: boolean; json?: boolean }): Promise<void> {
  const { configPath, stateDir } = locateConfig({ cliConfig: opts.config, cliStateDir: opts.stateDir, env: process.env });
  const result = await loadConfig({ configPath, stateDir, env: process.env });
  if (!result.ok) {
    for (const e of result.errors) process.stderr.write(`error: ${formatConfigIssue(e)}\n`);
    process.exitCode = 1;
    return;
  }
  const { agents, bindings } = result.snapshot.config;
  if (opts.json) {
    const list = agents.map((a) => ({
      id: a.id,
      name: a.name ?? null,
      default: a.isDefault,
      model: a.model,
      workspace: a.workspace,
      identity: a.identity,
      bindings: bindings.filter((b) => b.agentId === a.id).map((b) => ({ index: b.index, match: b.match })),
    }));
    process.stdout.write(`${JSON.stringify({ configPath, stateDir, agents: list }, null, 2)}\n`);
    return;
  }
  process.stdout.write(`config ${configPath}, state dir ${stateDir}\n`);
  for (const a of agents) {
    const identity = [a.identity.emoji, a.identity.name ?? a.name].filter(Boolean).join(' ');
    process.stdout.write(`${a.id}${a.isDefault ? ' (default)' : ''}  model=${a.model}${identity ? `  ${identity}` : ''}\n`);
    process.stdout.write(`  workspace: ${a.workspace}\n`);
    if (opts.bindings) {
      const own = bindings.filter((b) => b.agentId === a.id);
      if (!own.length) process.stdout.write('  bindings: none\n');
      for (const b of own) process.stdout.write(`  binding [${b.index}]: ${JSON.stringify(b.match)}\n`);
    }
  }
}
