/**
 * Moving a state dir written by the file layout (per agent `agents/<id>/sessions/sessions.json` plus one
 * `<sessionId>.jsonl` per session, also what an OpenClaw install leaves) into the session database, once, at
 * the first start. Each agent's import is one transaction that also records the file as imported, so a
 * crash part-way leaves either nothing or everything of that agent; the index file is then renamed to
 * `sessions.json.migrated` (a rename missed by a crash is finished on the next start). Transcript files are
 * left where they are, unread from then on.
 */
import { existsSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import * as path from 'node:path';
import { parseIndexFile } from './session-index-file';
import { insertLine, insertSession, SessionConnection } from './session-database';
import { parseTranscript, transcriptPath } from './transcript-jsonl';
import type { SessionEntry, TranscriptLine } from './session-store.port';

export const LEGACY_INDEX_FILE = 'sessions.json';
export const MIGRATED_SUFFIX = '.migrated';

export interface ImportOutcome {
  agents: number;
  sessions: number;
  lines: number;
  /** One line per dropped entry, skipped transcript line or key already in the database. */
  problems: string[];
}

/** Imports every not-yet-imported `agents/<id>/sessions/sessions.json` under `stateDir`. */
export function importLegacyLayout(c: SessionConnection, stateDir: string): ImportOutcome {
  const outcome: ImportOutcome = { agents: 0, sessions: 0, lines: 0, problems: [] };
  const agentsDir = path.join(stateDir, 'agents');
  const agentIds = existsSync(agentsDir) ? readdirSync(agentsDir, { withFileTypes: true }).filter((d) => d.isDirectory()) : [];
  const imported = c.db.prepare('SELECT 1 FROM imported_layouts WHERE file = ?');
  const record = c.db.prepare('INSERT INTO imported_layouts (file, sessions, lines, imported_at) VALUES (?, ?, ?, ?)');
  const sessionIdTaken = c.db.prepare('SELECT 1 FROM sessions WHERE session_id = ?');
  for (const dirent of agentIds) {
    const sessionsDir = path.join(agentsDir, dirent.name, 'sessions');
    const file = path.join(sessionsDir, LEGACY_INDEX_FILE);
    if (!existsSync(file)) continue;
    if (!imported.get(file)) {
      const agent = readAgent(file, sessionsDir, dirent.name, outcome.problems);
      if (!agent) {
        // Not something the gateway wrote; keep it for the operator under a name that is never read again.
        renameSync(file, `${file}.corrupt-${Date.now()}`);
        continue;
      }
      c.db.transaction(() => {
        let sessions = 0;
        let lines = 0;
        for (const { entry, transcript } of agent) {
          if (c.statements.byKey.get(entry.sessionKey)) {
            outcome.problems.push(`${file}: session ${entry.sessionKey} is already in the database; kept the database's`);
            continue;
          }
          // The database's rules hold for imported entries too: a clash costs the entry or its label, never the start.
          if (sessionIdTaken.get(entry.sessionId)) {
            outcome.problems.push(
              `${file}: session ${entry.sessionKey}: sessionId ${entry.sessionId} is already used by another session; not imported`,
            );
            continue;
          }
          if (entry.label !== undefined && c.statements.labelHolder.get(entry.agentId, entry.label)) {
            outcome.problems.push(
              `${file}: session ${entry.sessionKey}: label ${JSON.stringify(entry.label)} is already held in the database; cleared`,
            );
            delete entry.label;
          }
          const seq = insertSession(c, entry);
          for (const line of transcript) insertLine(c, seq, line.role, JSON.stringify(line));
          sessions++;
          lines += transcript.length;
        }
        record.run(file, sessions, lines, Date.now());
        outcome.sessions += sessions;
        outcome.lines += lines;
      })();
      outcome.agents++;
      // The commit is in the WAL, not yet synced (synchronous=NORMAL): make it durable before the rename that
      // says it happened, or a power loss could leave a renamed index and no imported sessions.
      c.db.pragma('wal_checkpoint(FULL)');
    }
    renameSync(file, `${file}${MIGRATED_SUFFIX}`);
  }
  return outcome;
}

/** The agent's sessions with their transcripts; undefined when the index file is unusable as a whole. */
function readAgent(
  file: string,
  sessionsDir: string,
  agentId: string,
  problems: string[],
): Array<{ entry: SessionEntry; transcript: TranscriptLine[] }> | undefined {
  const parsed = parseIndexFile(readFileSync(file, 'utf8'), agentId);
  if (parsed.corrupt) {
    problems.push(`${file} is not a valid session index (${parsed.corrupt}); moved aside, nothing of it was imported`);
    return undefined;
  }
  problems.push(...parsed.problems.map((p) => `${file}: ${p}`));
  return parsed.entries.map((entry) => {
    const transcriptFile = transcriptPath(sessionsDir, entry.sessionId);
    const text = existsSync(transcriptFile) ? readFileSync(transcriptFile, 'utf8') : '';
    const transcript = parseTranscript(text);
    problems.push(...transcript.warnings.map((w) => `${transcriptFile}: ${w}`));
    return { entry, transcript: transcript.lines };
  });
}
