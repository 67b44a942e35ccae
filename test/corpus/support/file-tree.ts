import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/**
 * Every entry under `root` (relative path → kind, size, mtime and SHA-256 of the content): two snapshots are equal
 * only if nothing was created, removed, renamed, written or touched.
 */
export async function snapshotTree(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const rel of (await fs.readdir(root, { recursive: true })).map(String).sort()) {
    const abs = path.join(root, rel);
    const st = await fs.lstat(abs);
    if (st.isDirectory()) out[rel] = `dir mtime=${st.mtimeMs}`;
    else {
      const hash = createHash('sha256')
        .update(await fs.readFile(abs))
        .digest('hex')
        .slice(0, 16);
      out[rel] = `file size=${st.size} mtime=${st.mtimeMs} sha256=${hash}`;
    }
  }
  return out;
}

/**
 * What an OpenClaw install keeps in its state dir beside openclaw.json, as OpenClaw leaves it: the main agent's
 * sessions in its file layout, credentials, and each workspace inside the dir with its prompt files.
 */
export async function seedOpenClawState(dir: string, workspaces: string[]): Promise<void> {
  const sessions = path.join(dir, 'agents', 'main', 'sessions');
  await fs.mkdir(sessions, { recursive: true });
  const sessionId = '0b7c8e2e-5d7a-4c1e-9d55-1f6f3c2a9e10';
  await fs.writeFile(
    path.join(sessions, 'sessions.json'),
    JSON.stringify({ 'agent:main:main': { sessionId, updatedAt: 1767225600000 } }, null, 2),
  );
  await fs.writeFile(
    path.join(sessions, `${sessionId}.jsonl`),
    `${JSON.stringify({ type: 'message', message: { role: 'user', content: 'hello from OpenClaw' } })}\n`,
  );
  await fs.mkdir(path.join(dir, 'credentials'), { recursive: true });
  await fs.writeFile(path.join(dir, 'credentials', 'oauth.json'), '{}\n');
  for (const ws of workspaces.filter((w) => w === dir || w.startsWith(dir + path.sep))) {
    await fs.mkdir(path.join(ws, 'memory'), { recursive: true });
    for (const name of ['AGENTS.md', 'SOUL.md', 'USER.md', 'TOOLS.md', 'MEMORY.md', 'IDENTITY.md', 'HEARTBEAT.md']) {
      await fs.writeFile(path.join(ws, name), `# ${name}\n`, { flag: 'w' });
    }
  }
}
