import * as path from 'node:path';
import type { ResolvedAgent } from '../config';
import { PromptFileCache, PromptFileReader, readPromptFile } from './prompt-file-cache';

/** Workspace files that become part of the system prompt, in this order. */
export const PROMPT_FILES = ['AGENTS.md', 'SOUL.md', 'USER.md', 'TOOLS.md'] as const;
/** Cap per prompt file, so one huge file cannot crowd out the conversation. */
export const MAX_PROMPT_FILE_CHARS = 20_000;

/**
 * The system prompt of a run: who the agent is, its workspace prompt files (empty ones skipped), then the
 * run's extra instructions (e.g. the agent-to-agent context).
 */
export async function buildSystemPrompt(
  agent: ResolvedAgent,
  extraSystemPrompt?: string,
  // Uncached unless the caller brings its cache: a cache made per call would only open watches nobody closes.
  files: PromptFileReader = { read: readPromptFile },
): Promise<string> {
  // Read side by side (every run pays for these), assembled in PROMPT_FILES order.
  const texts = await Promise.all(promptFilePaths(agent.workspace).map((file) => files.read(file)));
  return assemble(agent, texts, extraSystemPrompt);
}

/**
 * The same prompt without waiting, when the cache vouches for every prompt file; undefined when one must be
 * read. Most runs take this path: their files did not change, so the run awaits nothing for its prompt.
 */
export function cachedSystemPrompt(agent: ResolvedAgent, files: PromptFileCache, extraSystemPrompt?: string): string | undefined {
  const texts: string[] = [];
  for (const file of promptFilePaths(agent.workspace)) {
    const text = files.peek(file);
    if (text === undefined) return undefined;
    texts.push(text);
  }
  return assemble(agent, texts, extraSystemPrompt);
}

/** The prompt files' paths per workspace, joined once rather than on every run. */
const pathsByWorkspace = new Map<string, readonly string[]>();
const MAX_WORKSPACES = 1000;

function promptFilePaths(workspace: string): readonly string[] {
  let paths = pathsByWorkspace.get(workspace);
  if (!paths) {
    if (pathsByWorkspace.size >= MAX_WORKSPACES) pathsByWorkspace.clear();
    paths = PROMPT_FILES.map((file) => path.join(workspace, file));
    pathsByWorkspace.set(workspace, paths);
  }
  return paths;
}

/** `texts` in PROMPT_FILES order. */
function assemble(agent: ResolvedAgent, texts: readonly string[], extraSystemPrompt?: string): string {
  const name = agent.identity.name ?? agent.name ?? agent.id;
  const parts = [`You are ${name}${agent.identity.emoji ? ` ${agent.identity.emoji}` : ''} (agent id "${agent.id}").`];
  for (const [i, file] of PROMPT_FILES.entries()) {
    const text = texts[i];
    if (text.trim()) {
      const clipped = text.length > MAX_PROMPT_FILE_CHARS ? `${text.slice(0, MAX_PROMPT_FILE_CHARS)}\n[${file} truncated]` : text;
      parts.push(`## ${file}\n${clipped.trim()}`);
    }
  }
  if (extraSystemPrompt?.trim()) parts.push(extraSystemPrompt.trim());
  return parts.join('\n\n');
}
