import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ConfigStore } from '../config/config.store';
import type { ResolvedAgent } from '../config/config.types';
import { AgentsService } from './agents.service';

describe('AgentsService.ensureWorkspace', () => {
  let root: string;
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-agents-'));
  });
  afterEach(() => fs.rm(root, { recursive: true, force: true }));

  const agentAt = (agentDir: string) =>
    ({ id: 'main', workspace: path.join(root, 'ws'), sessionsDir: path.join(root, 'sessions'), agentDir }) as ResolvedAgent;

  it('creates a moved agentDir even when workspace and sessions dir stay (reload)', async () => {
    const service = new AgentsService({} as ConfigStore);
    await service.ensureWorkspace(agentAt(path.join(root, 'agent-a')));
    await service.ensureWorkspace(agentAt(path.join(root, 'agent-b')));
    expect((await fs.stat(path.join(root, 'agent-b'))).isDirectory()).toBe(true);
  });

  it('prepares an unchanged agent once', async () => {
    const service = new AgentsService({} as ConfigStore);
    const agent = agentAt(path.join(root, 'agent-a'));
    await service.ensureWorkspace(agent);
    await fs.rm(agent.agentDir, { recursive: true });
    await service.ensureWorkspace(agent);
    await expect(fs.stat(agent.agentDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
