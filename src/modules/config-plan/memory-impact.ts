import * as path from 'node:path';
import type { RuntimeSnapshot } from '../config';
import { agentCollections } from '../memory';

/** One directional grant: `agent` may search the collection `collection` (a directory it does not own). */
export interface MemoryGrant {
  agent: string;
  collection: string;
  path: string;
  pattern: string;
  /** The configured agent whose workspace or session directory the collection lies in, if any. */
  owner: string | null;
}

export interface MemoryImpact {
  grantsAdded: MemoryGrant[];
  grantsRemoved: MemoryGrant[];
}

/**
 * Grants added and removed: the extra collections each agent may search, as the memory module computes
 * them (so a grant the builtin backend ignores is no grant). A grant is its agent, name, directory and
 * pattern; changing any of them removes one grant and adds another.
 */
export function memoryImpact(before: RuntimeSnapshot, after: RuntimeSnapshot): MemoryImpact {
  const was = memoryGrants(before);
  const now = memoryGrants(after);
  return {
    grantsAdded: [...now].filter(([key]) => !was.has(key)).map(([, grant]) => grant),
    grantsRemoved: [...was].filter(([key]) => !now.has(key)).map(([, grant]) => grant),
  };
}

/** Every grant of a snapshot, keyed by its identity (agent, name, directory, pattern). */
export function memoryGrants(snapshot: RuntimeSnapshot): Map<string, MemoryGrant> {
  const { agents, memory } = snapshot.config;
  const grants = new Map<string, MemoryGrant>();
  for (const agent of agents) {
    for (const c of agentCollections(agent, memory, agents, snapshot.stateDir)) {
      if (c.kind !== 'extra') continue;
      const owner = agents.find((a) => inside(a.workspace, c.root) || inside(a.sessionsDir, c.root))?.id ?? c.transcriptsOf ?? null;
      const grant: MemoryGrant = { agent: agent.id, collection: c.name, path: c.root, pattern: c.pattern, owner };
      grants.set(JSON.stringify([agent.id, c.name, c.root, c.pattern]), grant);
    }
  }
  return grants;
}

function inside(parent: string, child: string): boolean {
  const rel = path.relative(path.resolve(parent), child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
