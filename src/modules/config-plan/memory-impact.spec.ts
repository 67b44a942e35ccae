import * as path from 'node:path';
import { snapshotFrom } from '../../../test/support/config-snapshot';
import { memoryImpact } from './memory-impact';

const STATE = '/nonexistent/clawgate-state';
const snapshot = (mainGrants: unknown[], backend = 'qmd') =>
  snapshotFrom(
    {
      agents: {
        list: [
          { id: 'main', workspace: '/srv/ws/main', memorySearch: { qmd: { extraCollections: mainGrants } } },
          { id: 'family', workspace: '/srv/ws/family' },
        ],
      },
      memory: { backend },
    },
    { stateDir: STATE },
  );

describe('memoryImpact', () => {
  it('lists directional grants added and removed, with the agent whose material it is', async () => {
    const sessions = { name: 'family-sessions', path: path.join(STATE, 'agents/family/sessions') };
    const notes = { name: 'family-notes', path: '/srv/ws/family/notes' };
    const before = await snapshot([sessions]);
    const after = await snapshot([notes]);
    expect(memoryImpact(before, after)).toEqual({
      grantsAdded: [{ agent: 'main', collection: 'family-notes', path: '/srv/ws/family/notes', pattern: '**/*.md', owner: 'family' }],
      grantsRemoved: [
        { agent: 'main', collection: 'family-sessions', path: sessions.path, pattern: expect.stringContaining('*.jsonl'), owner: 'family' },
      ],
    });
    expect(memoryImpact(after, after)).toEqual({ grantsAdded: [], grantsRemoved: [] });
  });

  it('counts no grant the builtin backend ignores: switching to qmd is what grants', async () => {
    const grant = { name: 'shared', path: '/srv/shared' };
    const builtin = await snapshot([grant], 'builtin');
    const qmd = await snapshot([grant]);
    expect(memoryImpact(builtin, qmd)).toEqual({
      grantsAdded: [{ agent: 'main', collection: 'shared', path: '/srv/shared', pattern: '**/*.md', owner: null }],
      grantsRemoved: [],
    });
  });
});
