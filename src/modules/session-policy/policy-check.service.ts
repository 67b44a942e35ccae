import { Injectable } from '@nestjs/common';
import { badRequest, notFound } from '../../common/errors/app-error';
import { ConfigStore, type RuntimeSnapshot } from '../config';
import { suggestClosest } from '../../common/text/did-you-mean';
import { mainSessionKey, parseSessionKey } from '../sessions';
import type { PolicyCheckQueryDto, PolicyCheckResultDto } from './dto/policy-check.dto';
import { SessionAccessPolicy } from './session-access-policy.service';

/** Answers `GET /admin/policy/check` by running the real session access check on a pair of sessions (a dry run). */
@Injectable()
export class PolicyCheckService {
  constructor(
    private readonly configStore: ConfigStore,
    private readonly access: SessionAccessPolicy,
  ) {}

  check(query: PolicyCheckQueryDto): Promise<PolicyCheckResultDto> {
    // One snapshot for validation and decision, so a reload in between cannot answer for a removed agent.
    return this.checkIn(this.configStore.current(), query);
  }

  /** The same decision over a given snapshot (the config plan asks it of the current and the candidate config). */
  async checkIn(snapshot: RuntimeSnapshot, query: PolicyCheckQueryDto): Promise<PolicyCheckResultDto> {
    const from = knownAgent(snapshot, query.from);
    const to = knownAgent(snapshot, query.to);
    const mainKey = snapshot.config.session.mainKey;
    const fromSession = sessionOf('fromSession', query.fromSession, from, mainKey);
    const toSession = sessionOf('toSession', query.toSession, to, mainKey);
    const decision = await this.access.check(fromSession, toSession, snapshot);
    return decision.allowed
      ? { allowed: true, layer: null, rule: decision.rule }
      : { allowed: false, layer: decision.layer, rule: decision.rule, message: decision.message };
  }
}

function knownAgent(snapshot: RuntimeSnapshot, id: string): string {
  if (snapshot.agentsById.has(id)) return id;
  const known = [...snapshot.agentsById.keys()];
  const hint = suggestClosest(id, known);
  throw notFound(`unknown agent ${JSON.stringify(id)}${hint ? ` (did you mean "${hint}"?)` : ''}; configured: ${known.join(', ')}`);
}

/** The given key (canonical form) after checking it is a session of `agentId`, else the agent's main key. */
function sessionOf(param: string, key: string | undefined, agentId: string, mainKey: string): string {
  if (key === undefined) return mainSessionKey(agentId, mainKey);
  const parsed = parseSessionKey(key);
  if (!parsed) throw badRequest(`${param} ${JSON.stringify(key)} is not a session key (expected "agent:<agentId>:<rest>")`);
  if (parsed.agentId !== agentId) {
    throw badRequest(`${param} ${JSON.stringify(key)} belongs to agent "${parsed.agentId}", not "${agentId}"`);
  }
  return parsed.key;
}
