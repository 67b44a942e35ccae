import { Inject, Injectable } from '@nestjs/common';
import { CONFIG_DEFAULTS, type SubagentLimits } from '../config';
import { AgentRunner, type ToolResult } from '../runtime';
import { SESSION_STORE, type SessionStore } from '../sessions';

/** Lineage deeper than this is not walked (maxSpawnDepth is at most 5; an older layout's cycle ends the walk too). */
const MAX_LINEAGE_WALK = 64;

const DEFAULT_LIMITS: SubagentLimits = {
  maxSpawnDepth: { value: CONFIG_DEFAULTS.agents.defaults.subagents.maxSpawnDepth, key: 'agents.defaults.subagents.maxSpawnDepth' },
  maxChildrenPerAgent: {
    value: CONFIG_DEFAULTS.agents.defaults.subagents.maxChildrenPerAgent,
    key: 'agents.defaults.subagents.maxChildrenPerAgent',
  },
};

/**
 * The two limits of the spawn tree (docs/sessions.md#spawn-limits): how deep sessions_spawn nests, and how many
 * spawned sessions of one session may be active at once. The depth is read from the sessions' lineage
 * (`spawnedBy`, stored with each session, so it survives a restart); the active children from the runs.
 */
@Injectable()
export class SpawnLimits {
  /** Spawns admitted but whose child run has not been started yet, per requesting session. */
  private readonly pending = new Map<string, number>();

  constructor(
    private readonly runner: AgentRunner,
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
  ) {}

  /** Depth of a session: 0 for one nobody spawned, else its spawner's depth + 1. */
  async depthOf(sessionKey: string): Promise<number> {
    const seen = new Set<string>([sessionKey]);
    let depth = 0;
    for (let parent = (await this.sessions.get(sessionKey))?.spawnedBy; parent !== undefined && !seen.has(parent);) {
      depth++;
      if (depth >= MAX_LINEAGE_WALK) break;
      seen.add(parent);
      parent = (await this.sessions.get(parent))?.spawnedBy;
    }
    return depth;
  }

  /**
   * Admits a spawn from `sessionKey` or refuses it (the tool result the model reads). An admitted spawn counts as an
   * active child from here on, also before its run exists: call `release` once the child's run is started (or the
   * spawn failed). The children are counted before anything is awaited, so two spawns at once cannot both take the
   * last place.
   */
  async admit(sessionKey: string, limits: SubagentLimits = DEFAULT_LIMITS): Promise<{ refused: ToolResult } | { release: () => void }> {
    const { maxSpawnDepth, maxChildrenPerAgent } = limits;
    const active = this.runner.activeChildSessions(sessionKey).size + (this.pending.get(sessionKey) ?? 0);
    if (active >= maxChildrenPerAgent.value) {
      return {
        refused: {
          status: 'forbidden',
          error:
            `sessions_spawn refused: ${active} spawned sessions of this session are active, ${maxChildrenPerAgent.key} is ` +
            `${maxChildrenPerAgent.value} (wait for one to finish, or stop one with the subagents tool)`,
        },
      };
    }
    const release = this.reserve(sessionKey);
    const depth = await this.depthOf(sessionKey).catch((err: Error) => {
      release();
      throw err;
    });
    if (depth >= maxSpawnDepth.value) {
      release();
      return {
        refused: {
          status: 'forbidden',
          error:
            `sessions_spawn refused: depth ${depth} reaches ${maxSpawnDepth.key} ${maxSpawnDepth.value} ` +
            '(this session may not spawn; do the work here, or report back to the session that spawned this one)',
        },
      };
    }
    return { release };
  }

  private reserve(sessionKey: string): () => void {
    this.pending.set(sessionKey, (this.pending.get(sessionKey) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.pending.get(sessionKey) ?? 1) - 1;
      if (left > 0) this.pending.set(sessionKey, left);
      else this.pending.delete(sessionKey);
    };
  }
}
