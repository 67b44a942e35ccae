import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { snapshotFrom } from '../../../test/support/config-snapshot';
import { ServingConfigStore } from '../../../test/support/serving-config-store';
import type { ResolvedAgent, RuntimeSnapshot } from '../config/config.types';
import { AgentsService } from './agents.service';

describe('AgentsService.ensureWorkspace', () => {
  let root: string;
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-agents-'));
  });
  afterEach(() => fs.rm(root, { recursive: true, force: true }));

  const snapshotAt = (agentDir: string): Promise<RuntimeSnapshot> =>
    snapshotFrom({ agents: { list: [{ id: 'main', workspace: path.join(root, 'ws'), agentDir }] } }, { stateDir: root });
  const agentAt = async (agentDir: string): Promise<ResolvedAgent> => (await snapshotAt(agentDir)).config.agents[0];
  const newService = async () => new AgentsService(new ServingConfigStore(await snapshotAt(path.join(root, 'agent-a'))));

  it('creates a moved agentDir even when workspace and sessions dir stay (reload)', async () => {
    const service = await newService();
    await service.ensureWorkspace(await agentAt(path.join(root, 'agent-a')));
    await service.ensureWorkspace(await agentAt(path.join(root, 'agent-b')));
    expect((await fs.stat(path.join(root, 'agent-b'))).isDirectory()).toBe(true);
  });

  it('prepares an unchanged agent once', async () => {
    const service = await newService();
    const agent = await agentAt(path.join(root, 'agent-a'));
    await service.ensureWorkspace(agent);
    await fs.rm(agent.agentDir, { recursive: true });
    await service.ensureWorkspace(agent);
    await expect(fs.stat(agent.agentDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
