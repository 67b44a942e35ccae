import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ResolvedAgent } from '../config';
import { PromptFileCache } from './prompt-file-cache';
import { buildSystemPrompt, cachedSystemPrompt } from './system-prompt';

const agentIn = (workspace: string) =>
  ({ id: 'main', name: 'Main', identity: { name: 'Molty', emoji: '🦞' }, workspace }) as unknown as ResolvedAgent;

describe('system prompt', () => {
  let dir: string;
  let cache: PromptFileCache;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-system-prompt-'));
    cache = new PromptFileCache();
  });
  afterEach(async () => {
    cache.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('assembles identity, the non-empty prompt files in order and the extra instructions', async () => {
    await fs.writeFile(path.join(dir, 'SOUL.md'), '  be kind  ');
    await fs.writeFile(path.join(dir, 'AGENTS.md'), 'rules');
    await fs.writeFile(path.join(dir, 'USER.md'), '   ');
    const prompt = await buildSystemPrompt(agentIn(dir), ' extra ', cache);
    expect(prompt).toBe('You are Molty 🦞 (agent id "main").\n\n## AGENTS.md\nrules\n\n## SOUL.md\nbe kind\n\nextra');
  });

  it('comes from the cache without waiting once every file was read, and is the same text', async () => {
    await fs.writeFile(path.join(dir, 'SOUL.md'), 'be kind');
    const agent = agentIn(dir);
    // Nothing read yet (the missing files included): the cache cannot vouch, so the caller must read.
    expect(cachedSystemPrompt(agent, cache)).toBeUndefined();
    const read = await buildSystemPrompt(agent, 'extra', cache);
    expect(cachedSystemPrompt(agent, cache, 'extra')).toBe(read);
  });

  it('stops vouching once a prompt file changes, and the next read has the new text', async () => {
    const soul = path.join(dir, 'SOUL.md');
    await fs.writeFile(soul, 'be kind');
    const agent = agentIn(dir);
    await buildSystemPrompt(agent, undefined, cache);
    expect(cachedSystemPrompt(agent, cache)).toContain('be kind');
    await fs.writeFile(soul, 'be brief');
    const until = Date.now() + 5000;
    while (cachedSystemPrompt(agent, cache) !== undefined && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    expect(cachedSystemPrompt(agent, cache)).toBeUndefined();
    expect(await buildSystemPrompt(agent, undefined, cache)).toContain('be brief');
  });
});
