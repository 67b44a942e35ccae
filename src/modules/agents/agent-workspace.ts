import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { ResolvedAgent } from '../config';
import { PRIVATE_DIR_MODE } from '../../common/fs/private-files';

/**
 * Prompt files every workspace has (docs/runtime.md#workspaces-and-directories); created empty so the
 * operator sees where to write.
 */
export const WORKSPACE_PROMPT_FILES = ['AGENTS.md', 'SOUL.md', 'USER.md', 'TOOLS.md', 'MEMORY.md'] as const;

/**
 * Creates the agent's workspace (with empty prompt files and `memory/`), state dir and session dir when
 * missing. Existing files are never overwritten. Idempotent. The state and session dirs (conversations)
 * are private to the gateway's user and are created first, so a state directory they create is private
 * too; the workspace is the operator's to edit and keeps the usual mode.
 */
export async function ensureAgentWorkspace(agent: ResolvedAgent): Promise<void> {
  await fs.mkdir(agent.agentDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await fs.mkdir(agent.sessionsDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await fs.mkdir(path.join(agent.workspace, 'memory'), { recursive: true });
  await Promise.all(
    WORKSPACE_PROMPT_FILES.map((name) =>
      fs.writeFile(path.join(agent.workspace, name), '', { flag: 'wx' }).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      }),
    ),
  );
}
