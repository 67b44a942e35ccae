import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import { GatewayWatch } from './gateway-applied';
import { leaveCliEditNote } from '../modules/config-plan';
import { AppError } from '../common/errors/app-error';
import { normalizeAgentId } from '../common/agent-id';
import {
  planAddAgent,
  planAddBinding,
  planDeleteAgent,
  planSetIdentity,
  planUnbind,
  type AgentFields,
  type BindingMatchInput,
} from '../modules/agents';
import { editConfigFile, formatConfigIssue, loadConfig, locateConfig, type EditPlan, type LoadResult } from '../modules/config';

/** Options every `agents` verb accepts to find the config. */
export interface LocateOptions {
  config?: string;
  stateDir?: string;
}

export function runAgentsAdd(id: string, opts: LocateOptions & { name?: string; workspace?: string; model?: string }): Promise<void> {
  const fields: AgentFields = { name: opts.name, workspace: opts.workspace, model: opts.model };
  const agentId = normalizeAgentId(id);
  return edit(opts, planAddAgent(id, fields), `added agent ${agentId}`, (current) =>
    // Said plainly before the writer's duplicate-id error (a path into agents.list the user never typed).
    current.ok && current.snapshot.agentsById.has(agentId) ? `agent ${agentId} already exists` : undefined,
  );
}

export function runAgentsSetIdentity(id: string, opts: LocateOptions & { name?: string; emoji?: string; avatar?: string }): Promise<void> {
  if (opts.name === undefined && opts.emoji === undefined && opts.avatar === undefined) {
    return fail('set-identity needs at least one of --name, --emoji, --avatar');
  }
  return edit(
    opts,
    planSetIdentity(id, { name: opts.name, emoji: opts.emoji, avatar: opts.avatar }),
    `updated identity of ${normalizeAgentId(id)}`,
  );
}

type MatchOptions = { channel: string; account?: string; peer?: string };

export function runAgentsBind(id: string, opts: LocateOptions & MatchOptions): Promise<void> {
  const match = parseMatch(opts);
  if (typeof match === 'string') return fail(match);
  return edit(opts, planAddBinding(id, match), `bound ${normalizeAgentId(id)} to ${JSON.stringify(match)}`);
}

export function runAgentsUnbind(id: string, opts: LocateOptions & MatchOptions): Promise<void> {
  const match = parseMatch(opts);
  if (typeof match === 'string') return fail(match);
  return edit(opts, planUnbind(id, match), `unbound ${normalizeAgentId(id)} from ${JSON.stringify(match)}`);
}

/** The match given by --channel/--account/--peer, or what is wrong with it. */
function parseMatch(opts: MatchOptions): BindingMatchInput | string {
  const match: BindingMatchInput = { channel: opts.channel, accountId: opts.account };
  if (opts.peer !== undefined) {
    const [kind, ...rest] = opts.peer.split(':');
    const peerId = rest.join(':');
    if (!['direct', 'group', 'channel'].includes(kind) || !peerId) {
      return `--peer must look like kind:id with kind direct, group or channel (got "${opts.peer}")`;
    }
    match.peer = { kind: kind as 'direct' | 'group' | 'channel', id: peerId };
  }
  return match;
}

export function runAgentsDelete(id: string, opts: LocateOptions): Promise<void> {
  return edit(opts, planDeleteAgent(id), `deleted agent ${normalizeAgentId(id)} (workspace and sessions stay on disk)`);
}

/**
 * Same writer as the admin API; a running gateway picks the change up by hot reload. Every outcome names the
 * config and the state dir used (the CLI's defaults are not `npm start`'s), and `refuse` may stop the edit
 * with a plain reason before the writer runs.
 */
async function edit(
  opts: LocateOptions,
  plan: EditPlan,
  done: string,
  refuse?: (current: LoadResult) => string | undefined,
): Promise<void> {
  const { configPath, stateDir } = locateConfig({ cliConfig: opts.config, cliStateDir: opts.stateDir, env: process.env });
  const where = `config ${configPath}, state dir ${stateDir}`;
  const current = await loadConfig({ configPath, stateDir, env: process.env });
  const refusal = refuse?.(current);
  if (refusal) return fail(`${refusal} (${where}); nothing written`);
  try {
    const currentText = await fs.readFile(configPath, 'utf8');
    const watch = await GatewayWatch.before(stateDir, !current.ok || current.snapshot.config.gateway.state.backend === 'sqlite');
    let contentHash = '';
    const result = await editConfigFile({
      configPath,
      stateDir,
      env: process.env,
      plan,
      currentText,
      includedPaths: current.ok ? current.snapshot.includedPaths : undefined,
      // So the gateway's config history says who made this edit (source cli) when it applies it.
      beforeWrite: (hash) => {
        contentHash = hash;
        return leaveCliEditNote(stateDir, hash, `cli:${cliUser()}`);
      },
    });
    process.stdout.write(`${done} (revision ${result.revision}; ${where})\n`);
    // Only what this edit introduced: the loader's own wording (e.g. a channel without an adapter here).
    const before = new Set((current.warnings ?? []).map(formatConfigIssue));
    for (const w of result.warnings) {
      if (!before.has(formatConfigIssue(w))) process.stderr.write(`warning: ${formatConfigIssue(w)}\n`);
    }
    // An edit that changed nothing is not applied, so there is nothing to wait for.
    if (result.text !== currentText) await watch.report(contentHash);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const errors = (err.errors ?? []).filter((e) => e.severity !== 'warning');
    // The detail of an invalid result quotes its first errors: list them once, under a header of our own.
    if (errors.length) {
      process.stderr.write(`clawgate: the edit would make the config invalid (${where}); nothing written:\n`);
      for (const e of errors) process.stderr.write(`  ${formatConfigIssue(e as never)}\n`);
    } else {
      process.stderr.write(`clawgate: ${err.detail} (${where})\n`);
    }
    process.exitCode = 1;
  }
}

function cliUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return 'unknown';
  }
}

function fail(message: string): Promise<void> {
  process.stderr.write(`clawgate: ${message}\n`);
  process.exitCode = 1;
  return Promise.resolve();
}
