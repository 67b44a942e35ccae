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
import { editConfigFromCli as edit, failCli as fail, type LocateOptions } from './cli-config-edit';

export function runAgentsAdd(id: string, opts: LocateOptions & { name?: string; workspace?: string; model?: string }): Promise<void> {
  const fields: AgentFields = { name: opts.name, workspace: opts.workspace, model: opts.model };
  const agentId = normalizeAgentId(id);
  return edit(opts, planAddAgent(id, fields), `added agent ${agentId}`, {
    // Said plainly before the writer's duplicate-id error (a path into agents.list the user never typed).
    refuse: (current) => (current.ok && current.snapshot.agentsById.has(agentId) ? `agent ${agentId} already exists` : undefined),
  });
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
