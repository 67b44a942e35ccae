import * as os from 'node:os';
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
import { editConfigFile, formatConfigIssue, loadConfig, locateConfig, type EditPlan } from '../modules/config';

/** Options every `agents` verb accepts to find the config. */
export interface LocateOptions {
  config?: string;
  stateDir?: string;
}

export function runAgentsAdd(id: string, opts: LocateOptions & { name?: string; workspace?: string; model?: string }): Promise<void> {
  const fields: AgentFields = { name: opts.name, workspace: opts.workspace, model: opts.model };
  return edit(opts, planAddAgent(id, fields), `added agent ${normalizeAgentId(id)}`);
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

/** Same writer as the admin API; a running gateway picks the change up by hot reload. */
async function edit(opts: LocateOptions, plan: EditPlan, done: string): Promise<void> {
  const { configPath, stateDir } = locateConfig({ cliConfig: opts.config, cliStateDir: opts.stateDir, env: process.env });
  const current = await loadConfig({ configPath, stateDir, env: process.env });
  try {
    const result = await editConfigFile({
      configPath,
      stateDir,
      env: process.env,
      plan,
      includedPaths: current.ok ? current.snapshot.includedPaths : undefined,
      // So the gateway's config history says who made this edit (source cli) when it applies it.
      beforeWrite: (contentHash) => leaveCliEditNote(stateDir, contentHash, `cli:${cliUser()}`),
    });
    process.stdout.write(`${done} (revision ${result.revision}) in ${configPath}\n`);
    // Only what this edit introduced: the loader's own wording (e.g. a channel without an adapter here).
    const before = new Set((current.warnings ?? []).map(formatConfigIssue));
    for (const w of result.warnings) {
      if (!before.has(formatConfigIssue(w))) process.stderr.write(`warning: ${formatConfigIssue(w)}\n`);
    }
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    process.stderr.write(`clawgate: ${err.detail}\n`);
    for (const e of err.errors ?? []) {
      if (e.severity !== 'warning') process.stderr.write(`  ${formatConfigIssue(e as never)}\n`);
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
