import { promises as fs } from 'node:fs';
import { PRIVATE_FILE_MODE } from '../common/fs/private-files';
import type { SessionEntry } from '../modules/sessions';
import { suggestClosest } from '../common/text/did-you-mean';
import { callGateway, fail } from './gateway-client';

/**
 * `clawgate sessions list|show` and `sessions export --remote`: a running gateway's sessions through its admin
 * API (GET /admin/sessions…; CLAWGATE_URL, CLAWGATE_TOKEN with at least the viewer role).
 */

const out = (line: string): void => void process.stdout.write(`${line}\n`);

export async function runSessionsList(opts: {
  agent?: string;
  label?: string;
  limit?: string;
  cursor?: string;
  json?: boolean;
}): Promise<void> {
  // Sent as given: the gateway checks each and names what is wrong (400).
  const query = new URLSearchParams();
  if (opts.agent !== undefined) query.set('agentId', opts.agent);
  if (opts.label !== undefined) query.set('label', opts.label);
  if (opts.limit !== undefined) query.set('limit', opts.limit);
  if (opts.cursor !== undefined) query.set('cursor', opts.cursor);
  const res = await callGateway('GET', `/admin/sessions${query.size ? `?${query.toString()}` : ''}`);
  if (!res) return;
  const page = res.body as { count: number; sessions: SessionEntry[]; nextCursor?: string };
  // A misspelt agent would read as "no sessions"; a removed agent's sessions are still listed (the page is not empty).
  if (opts.agent !== undefined && !page.sessions.length && !opts.cursor && !(await agentConfigured(opts.agent))) return;
  if (opts.json) return out(JSON.stringify(page, null, 2));
  if (!page.sessions.length) out('no sessions');
  for (const s of page.sessions) out([s.sessionKey, s.agentId, s.label ?? '-', s.updatedAt].join('  '));
  if (page.nextCursor) out(`more: --cursor ${page.nextCursor}`);
}

interface TranscriptPage {
  lines: { ts: string; role: string; text: string }[];
  warnings: string[];
}

/** `--transcript` alone, or with a number of lines (the gateway checks the number and names what is wrong). */
type TranscriptOption = boolean | string | undefined;

/** Whether the running gateway's config has the agent; if not, an error naming its agents and the one probably meant. */
async function agentConfigured(agentId: string): Promise<boolean> {
  const res = await callGateway('GET', '/admin/agents');
  if (!res) return false;
  const agents = (res.body as { id: string }[]).map((a) => a.id);
  if (agents.includes(agentId.toLowerCase())) return true;
  const meant = suggestClosest(agentId, agents);
  fail(
    `no agent "${agentId}" in the config and no session of one by that id${meant ? ` (did you mean "${meant}"?)` : ''}; agents: ${agents.join(', ')}`,
  );
  return false;
}

export async function runSessionsShow(key: string, opts: { json?: boolean; transcript?: TranscriptOption }): Promise<void> {
  const path = `/admin/sessions/${encodeURIComponent(key)}`;
  const res = await callGateway('GET', path);
  if (!res) return;
  const entry = res.body as SessionEntry;
  let history: TranscriptPage | undefined;
  if (opts.transcript !== undefined && opts.transcript !== false) {
    const limit = typeof opts.transcript === 'string' ? `?limit=${encodeURIComponent(opts.transcript)}` : '';
    const page = await callGateway('GET', `${path}/history${limit}`);
    if (!page) return;
    history = page.body as TranscriptPage;
  }
  if (opts.json) return out(JSON.stringify(history ? { entry, history } : entry, null, 2));
  out(`session ${entry.sessionKey}`);
  out(`  id:       ${entry.sessionId}`);
  out(`  agent:    ${entry.agentId}`);
  if (entry.label) out(`  label:    ${entry.label}`);
  if (entry.spawnedBy) out(`  spawned by: ${entry.spawnedBy}`);
  out(`  created:  ${entry.createdAt}`);
  out(`  updated:  ${entry.updatedAt}`);
  if (entry.deliveryContext) out(`  delivery: ${JSON.stringify(entry.deliveryContext)}`);
  if (history) printTranscript(history);
}

/** One line per transcript line (continuation lines indented under it), oldest first, then what could not be read. */
function printTranscript(history: TranscriptPage): void {
  out(history.lines.length ? 'transcript (last lines, oldest first):' : 'transcript: empty');
  for (const line of history.lines) out(`  ${line.ts}  ${line.role}: ${line.text.replace(/\n/g, '\n    ')}`);
  for (const warning of history.warnings) out(`  (skipped: ${warning})`);
}

/** The transcript as JSONL from the gateway: on stdout, or in a new file created 0600 like the local export. */
export async function runRemoteSessionsExport(key: string, opts: { out?: string }): Promise<void> {
  const res = await callGateway('GET', `/admin/sessions/${encodeURIComponent(key)}/export`, { accept: 'application/x-ndjson' });
  if (!res) return;
  if (typeof res.body !== 'string') return void fail(`${res.url} answered the export with JSON, not JSON Lines`);
  if (!opts.out) return void process.stdout.write(res.body);
  try {
    await fs.writeFile(opts.out, res.body, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  } catch (err) {
    return void fail(`cannot write ${opts.out} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  process.stderr.write(`wrote ${opts.out} (session ${key} from ${res.url})\n`);
}
