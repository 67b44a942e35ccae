import { callGateway } from './gateway-client';

/**
 * `clawgate approvals list|approve|deny`: the tool calls that wait for an operator on a running gateway, through its
 * admin API (/admin/approvals; CLAWGATE_URL, CLAWGATE_TOKEN: viewer to list, operator to decide). docs/approvals.md.
 */

interface Approval {
  id: string;
  state: string;
  agentId: string;
  sessionKey: string;
  tool: string;
  args: Record<string, unknown>;
  channel: string;
  caller?: string;
  taskId?: string;
  requestedAt: string;
  expiresAt: string;
  decidedBy?: string;
  note?: string;
}

const out = (line: string): void => void process.stdout.write(`${line}\n`);
/** Arguments longer than this are cut in the table (--json prints them whole). */
const ARGS_CHARS = 60;

export async function runApprovalsList(opts: { all?: boolean; json?: boolean }): Promise<void> {
  const res = await callGateway('GET', opts.all ? '/admin/approvals' : '/admin/approvals?state=pending');
  if (!res) return;
  const { items } = res.body as { items: Approval[] };
  if (opts.json) return out(JSON.stringify(items, null, 2));
  if (!items.length) return out(opts.all ? 'no approvals' : 'no tool call waits for approval');
  for (const line of approvalLines(items)) out(line);
}

export function runApprovalsApprove(id: string, opts: { note?: string; json?: boolean }): Promise<void> {
  return decide(id, 'approve', opts);
}

export function runApprovalsDeny(id: string, opts: { note?: string; json?: boolean }): Promise<void> {
  return decide(id, 'deny', opts);
}

async function decide(id: string, action: 'approve' | 'deny', opts: { note?: string; json?: boolean }): Promise<void> {
  const body = opts.note !== undefined ? { note: opts.note } : {};
  const res = await callGateway('POST', `/admin/approvals/${encodeURIComponent(id)}/${action}`, { body });
  if (!res) return;
  const decided = res.body as Approval;
  if (opts.json) return out(JSON.stringify(decided, null, 2));
  out(`${decided.state} ${decided.tool} for agent ${decided.agentId} (approval ${decided.id}, by ${decided.decidedBy ?? '?'})`);
}

/** One line per approval: id, state, agent, tool, arguments (cut), from where, until when (pending) or by whom. */
export function approvalLines(items: readonly Approval[]): string[] {
  return items.map((a) => {
    const args = JSON.stringify(a.args);
    const from = `${a.channel}${a.caller ? `:${a.caller}` : ''}${a.taskId ? ` task ${a.taskId}` : ''}`;
    const when = a.state === 'pending' ? `until ${a.expiresAt}` : `by ${a.decidedBy ?? '?'}`;
    return [a.id, a.state, a.agentId, a.tool, args.length > ARGS_CHARS ? `${args.slice(0, ARGS_CHARS - 1)}…` : args, from, when].join('  ');
  });
}
