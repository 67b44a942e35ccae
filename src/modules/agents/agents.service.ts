import { Injectable } from '@nestjs/common';
import { notFound } from '../../common/errors/app-error';
import { normalizeAgentId } from '../../common/agent-id';
import { ConfigStore, type ResolvedAgent, type ResolvedBinding } from '../config';
import { ensureAgentWorkspace } from './agent-workspace';

/** The agent registry: every read comes from the current snapshot. */
@Injectable()
export class AgentsService {
  /** Agents' directory sets already prepared in this process, so first use pays the mkdir once. */
  private readonly prepared = new Set<string>();

  constructor(private readonly store: ConfigStore) {}

  list(): ResolvedAgent[] {
    return [...this.store.current().config.agents];
  }

  find(id: string): ResolvedAgent | undefined {
    return this.store.current().agentsById.get(normalizeAgentId(id));
  }

  /** The agent or a 404 naming the id. */
  get(id: string): ResolvedAgent {
    const agent = this.find(id);
    if (!agent) throw notFound(`no agent "${id}"`);
    return agent;
  }

  defaultAgent(): ResolvedAgent {
    const s = this.store.current();
    return s.agentsById.get(s.config.defaultAgentId) as ResolvedAgent;
  }

  bindingsOf(id: string): ResolvedBinding[] {
    const agentId = normalizeAgentId(id);
    return this.store.current().config.bindings.filter((b) => b.agentId === agentId);
  }

  /** Creates the workspace, state and session dirs on first use (docs/runtime.md#workspaces-and-directories). */
  async ensureWorkspace(agent: ResolvedAgent): Promise<void> {
    if (this.workspaceReady(agent)) return;
    await ensureAgentWorkspace(agent);
    this.prepared.add(preparedKey(agent));
  }

  /** True once ensureWorkspace has prepared these directories: the run path then skips the await altogether. */
  workspaceReady(agent: ResolvedAgent): boolean {
    return this.prepared.has(preparedKey(agent));
  }
}

/** Every directory ensureAgentWorkspace creates: a reload that moves any one of them prepares again. */
function preparedKey(agent: ResolvedAgent): string {
  return `${agent.workspace}\u0000${agent.agentDir}\u0000${agent.sessionsDir}`;
}
