import { Inject, Injectable } from '@nestjs/common';
import { ConfigStore, type RuntimeSnapshot } from '../config';
import { SESSION_STORE, type SessionStore } from '../sessions';
import { checkLabelLookup, checkSessionAccess, SessionAccessDecision } from './session-access';

/**
 * The session access check (visibility + agent-to-agent policy, layers 2 and 3) bound to the live config and the session store. Every
 * session tool and every admin endpoint that acts as a session asks this service — there is no other copy.
 */
@Injectable()
export class SessionAccessPolicy {
  constructor(
    private readonly configStore: ConfigStore,
    // Spawn ancestry is all the check asks of the store; the narrow type lets it run over a stand-in.
    @Inject(SESSION_STORE) private readonly sessions: Pick<SessionStore, 'isSpawnedBy'>,
  ) {}

  /**
   * May the session `requesterKey` see / act on `targetKey`? Reads the current snapshot unless the caller
   * already holds one (so its own validation and this decision see the same config).
   */
  check(requesterKey: string, targetKey: string, snapshot: RuntimeSnapshot = this.configStore.current()): Promise<SessionAccessDecision> {
    return checkSessionAccess({
      requesterKey,
      targetKey,
      config: snapshot,
      isSpawnedBy: (target, ancestor) => this.sessions.isSpawnedBy(target, ancestor),
    });
  }

  /** The subset of `keys` visible from `requesterKey`, in input order (sessions_list filtering). */
  async filterVisible(requesterKey: string, keys: readonly string[]): Promise<string[]> {
    // One snapshot for the whole list, so a reload mid-filter cannot mix two configs in one answer.
    const config = this.configStore.current();
    const isSpawnedBy = (target: string, ancestor: string) => this.sessions.isSpawnedBy(target, ancestor);
    const decisions = await Promise.all(keys.map((targetKey) => checkSessionAccess({ requesterKey, targetKey, config, isSpawnedBy })));
    return keys.filter((_, i) => decisions[i].allowed);
  }

  /** sessions_send by label: may the requester look labels up in `targetAgentId`? Asked before the lookup. */
  checkLabelLookup(
    requesterKey: string,
    targetAgentId: string,
    snapshot: RuntimeSnapshot = this.configStore.current(),
  ): SessionAccessDecision {
    return checkLabelLookup({ requesterKey, targetAgentId, config: snapshot });
  }
}
