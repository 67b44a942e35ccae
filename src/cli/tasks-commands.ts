import { TASK_STATES } from '../common/a2a-protocol';
import { callGateway, fail } from './gateway-client';

/**
 * `clawgate tasks list|show|cancel`: the A2A tasks peers created on a running gateway, through its admin API
 * (/admin/a2a/tasks…; CLAWGATE_URL, CLAWGATE_TOKEN: viewer to read, operator to cancel).
 */

interface TaskSummary {
  id: string;
  peer: string;
  contextId: string;
  agentId?: string;
  sessionKey?: string;
  messageId: string;
  state: string;
  statusMessage?: { messageId: string; text: string };
  runId?: string;
  createdAt: string;
  updatedAt: string;
  hasReply: boolean;
  artifact?: { artifactId: string; text: string };
}

const out = (line: string): void => void process.stdout.write(`${line}\n`);
const taskPath = (id: string) => `/admin/a2a/tasks/${encodeURIComponent(id)}`;

const STATE_PREFIX = 'TASK_STATE_';
/** What the CLI prints for a state and takes in `--state`: `working` for TASK_STATE_WORKING. */
const shortState = (state: string): string => (state.startsWith(STATE_PREFIX) ? state.slice(STATE_PREFIX.length) : state).toLowerCase();
const SHORT_STATES = TASK_STATES.map(shortState);

/** `--state` as printed (`working`), in any case, or the protocol's name (`TASK_STATE_WORKING`); undefined otherwise. */
export function parseStateFilter(value: string): string | undefined {
  const short = shortState(value.trim().toUpperCase());
  return SHORT_STATES.includes(short) ? short : undefined;
}

export async function runTasksList(opts: { peer?: string; state?: string; limit?: string; json?: boolean }): Promise<void> {
  const query = new URLSearchParams();
  if (opts.peer !== undefined) query.set('peer', opts.peer);
  if (opts.state !== undefined) {
    const state = parseStateFilter(opts.state);
    if (!state) return void fail(`--state ${JSON.stringify(opts.state)} is not a task state; use one of ${SHORT_STATES.join(', ')}`);
    query.set('state', state);
  }
  if (opts.limit !== undefined) query.set('limit', opts.limit);
  const res = await callGateway('GET', `/admin/a2a/tasks${query.size ? `?${query.toString()}` : ''}`);
  if (!res) return;
  const list = res.body as { count: number; tasks: TaskSummary[] };
  if (opts.json) return out(JSON.stringify(list, null, 2));
  if (!list.tasks.length) out('no tasks');
  for (const t of list.tasks) out([t.id, shortState(t.state), t.peer, t.agentId ?? '-', t.updatedAt].join('  '));
}

export async function runTasksShow(id: string, opts: { json?: boolean }): Promise<void> {
  const res = await callGateway('GET', taskPath(id));
  if (!res) return;
  const task = res.body as TaskSummary;
  if (opts.json) return out(JSON.stringify(task, null, 2));
  printTask(task);
}

export async function runTasksCancel(id: string, opts: { json?: boolean }): Promise<void> {
  const res = await callGateway('POST', `${taskPath(id)}/cancel`);
  if (!res) return;
  const task = res.body as TaskSummary;
  if (opts.json) return out(JSON.stringify(task, null, 2));
  out(`canceled task ${task.id} on ${res.url}`);
  printTask(task);
}

function printTask(task: TaskSummary): void {
  out(`task ${task.id}: ${shortState(task.state)}`);
  out(`  peer:     ${task.peer} (context ${task.contextId}, message ${task.messageId})`);
  if (task.agentId) out(`  agent:    ${task.agentId}${task.sessionKey ? ` (session ${task.sessionKey})` : ''}`);
  if (task.runId) out(`  run:      ${task.runId}`);
  out(`  created:  ${task.createdAt}`);
  out(`  updated:  ${task.updatedAt}`);
  if (task.statusMessage) out(`  status:   ${task.statusMessage.text}`);
  if (task.artifact) out(`  reply:    ${task.artifact.text}`);
}
