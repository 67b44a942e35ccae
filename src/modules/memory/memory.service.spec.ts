import { snapshotFrom } from '../../../test/support/config-snapshot';
import { ServingConfigStore } from '../../../test/support/serving-config-store';
import { AgentsService } from '../agents/agents.service';
import { SqliteSessionStore } from '../sessions/sqlite-session.store';
import { MemoryService } from './memory.service';
import { asHttp } from '../../../test/support/as-http';

describe('MemoryService shutdown', () => {
  it('opens no engine once destroyed (HTTP still answers while modules shut down)', async () => {
    const snapshot = await snapshotFrom(
      { agents: { list: [{ id: 'main', workspace: '/nonexistent/ws' }] } },
      { stateDir: '/nonexistent/state' },
    );
    const agents = new AgentsService(new ServingConfigStore(snapshot));
    const ensureWorkspace = jest.spyOn(agents, 'ensureWorkspace').mockResolvedValue(undefined);
    // The memory service's own view of the config: creating an engine would read it.
    const config = new ServingConfigStore(snapshot);
    jest.spyOn(config, 'current').mockImplementation(() => {
      throw new Error('no engine may be created');
    });
    // Never opened: a store touches its database only on first use.
    const sessions = new SqliteSessionStore(config);
    const service = new MemoryService(config, agents, { configPath: '', stateDir: '/nonexistent/state', env: {} }, sessions);
    service.onModuleInit();
    await service.onModuleDestroy();
    await expect(asHttp(service.search('main', { query: 'anything' }))).rejects.toMatchObject({
      status: 503,
      detail: 'the gateway is shutting down',
    });
    expect(ensureWorkspace).not.toHaveBeenCalled();
  });
});
