import { callGateway } from './gateway-client';

/**
 * `clawgate runs tree|kill|steer`: the tree of agent runs on a running gateway, through its admin API
 * (/admin/runs/{id}/tree, /admin/runs/{id}/kill, /admin/sessions/{key}/steer; CLAWGATE_URL, CLAWGATE_TOKEN: operator).
 */

interface RunTreeNode {
  runId: string;
  status: string;
  agentId: string;
  sessionKey: string;
  model?: string;
  usage?: { inputTokens: number; outputTokens: number };
  cost?: number;
  elapsedMs: number;
  error?: string;
  children: RunTreeNode[];
}

const out = (line: string): void => void process.stdout.write(`${line}\n`);
const runPath = (id: string) => `/admin/runs/${encodeURIComponent(id)}`;

export async function runRunsTree(id: string, opts: { json?: boolean }): Promise<void> {
  const res = await callGateway('GET', `${runPath(id)}/tree`);
  if (!res) return;
  if (opts.json) return out(JSON.stringify(res.body, null, 2));
  printTree(res.body as RunTreeNode);
}

export async function runRunsKill(id: string, opts: { json?: boolean }): Promise<void> {
  const res = await callGateway('POST', `${runPath(id)}/kill`);
  if (!res) return;
  const body = res.body as { aborted: string[]; tree: RunTreeNode };
  if (opts.json) return out(JSON.stringify(body, null, 2));
  out(`aborted ${body.aborted.length} run(s) on ${res.url}`);
  printTree(body.tree);
}

export async function runRunsSteer(sessionKey: string, message: string, opts: { json?: boolean }): Promise<void> {
  const res = await callGateway('POST', `/admin/sessions/${encodeURIComponent(sessionKey)}/steer`, { body: { message } });
  if (!res) return;
  const body = res.body as { runId: string; sessionKey: string; queuedBehind: number };
  if (opts.json) return out(JSON.stringify(body, null, 2));
  out(`steered ${body.sessionKey}: run ${body.runId}${body.queuedBehind ? ` (queued behind ${body.queuedBehind})` : ''}`);
}

/** One line per run, indented by depth: id, state, agent, session, model, tokens, cost, elapsed. */
export function treeLines(node: RunTreeNode, depth = 0): string[] {
  const tokens = node.usage ? `${node.usage.inputTokens}/${node.usage.outputTokens} tok` : '-';
  const cost = node.cost !== undefined ? `$${node.cost.toFixed(4)}` : '-';
  const line = [
    `${'  '.repeat(depth)}${node.runId}`,
    node.status,
    node.agentId,
    node.sessionKey,
    node.model ?? '-',
    tokens,
    cost,
    `${(node.elapsedMs / 1000).toFixed(1)}s`,
  ].join('  ');
  return [line, ...node.children.flatMap((c) => treeLines(c, depth + 1))];
}

function printTree(tree: RunTreeNode): void {
  for (const line of treeLines(tree)) out(line);
}
