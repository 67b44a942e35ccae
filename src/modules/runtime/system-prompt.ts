import * as path from 'node:path';
import type { ResolvedAgent } from '../config';
import { PromptFileReader, readPromptFile } from './prompt-file-cache';

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
  const name = agent.identity.name ?? agent.name ?? agent.id;
  const parts = [`You are ${name}${agent.identity.emoji ? ` ${agent.identity.emoji}` : ''} (agent id "${agent.id}").`];
  // Read side by side (every run pays for these), assembled in PROMPT_FILES order.
  const texts = await Promise.all(PROMPT_FILES.map((file) => files.read(path.join(agent.workspace, file))));
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
