import type { AgentsService } from '../agents/agents.service';
import type { ConfigStore } from '../config/config.store';
import { MemoryService } from './memory.service';
import { asHttp } from '../../../test/support/as-http';

describe('MemoryService shutdown', () => {
  it('opens no engine once destroyed (HTTP still answers while modules shut down)', async () => {
    const agent = { id: 'main', workspace: '/nonexistent/ws', sessionsDir: '/nonexistent/s', extraCollections: [] };
    const ensureWorkspace = jest.fn(async () => undefined);
    const agents = { get: () => agent, ensureWorkspace } as unknown as AgentsService;
    const config = { onApplied: () => () => undefined, current: () => { throw new Error('no engine may be created'); } } as unknown as ConfigStore;
    const service = new MemoryService(config, agents, { configPath: '', stateDir: '/nonexistent/state', env: {} });
    service.onModuleInit();
    await service.onModuleDestroy();
    await expect(asHttp(service.search('main', { query: 'anything' }))).rejects.toMatchObject({ status: 503, detail: 'the gateway is shutting down' });
    expect(ensureWorkspace).not.toHaveBeenCalled();
  });
});
