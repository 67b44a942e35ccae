import { Injectable } from '@nestjs/common';
import { ConfigStore, type NormalizedConfig, type ResolvedAgent } from '../config';
import { RoutingService } from '../routing';
import { reachableAgents } from './a2a-session-route';
import { type AgentCard, buildAgentCard } from './agent-card';
import { invalidParams } from './a2a-error-info';

const EXTENDED_DESCRIPTION =
  'clawgate multi-agent gateway, as this peer sees it. Each skill is an agent your conversations can reach; ' +
  "which one answers a context is the operator's routing. Send tasks with SendMessage, or SendStreamingMessage to follow them.";

/** A skill's name: the agent's identity (emoji and name) when it has one, else its id. */
function skillName(agent: ResolvedAgent): string {
  const { emoji, name } = agent.identity;
  return [emoji, name || agent.id].filter(Boolean).join(' ');
}

/**
 * The extended Agent Card of one peer (docs/a2a.md#extended-agent-card): the public card with only the agents
 * this peer can reach as skills, each with its identity and the operator's `description`, which the public
 * card withholds. `agents` come from reachableAgents, in `exposeAgents` order.
 */
export function buildExtendedAgentCard(config: NormalizedConfig, origin: string, agents: readonly ResolvedAgent[]): AgentCard {
  return {
    ...buildAgentCard(config, origin),
    name: agents[0]?.identity.name || 'clawgate',
    description: EXTENDED_DESCRIPTION,
    skills: agents.map((a) => ({ id: a.id, name: skillName(a), description: a.description ?? `Agent ${a.id}.`, tags: ['clawgate'] })),
  };
}

/** GetExtendedAgentCard params: none, or `{tenant}` (accepted and ignored, as for every method). */
function checkExtendedCardParams(params: unknown): void {
  if (params === undefined || params === null) return;
  if (typeof params !== 'object' || Array.isArray(params)) throw invalidParams('params must be an object');
  const { tenant } = params as Record<string, unknown>;
  if (tenant !== undefined && typeof tenant !== 'string') throw invalidParams('tenant must be a string');
}

/** GetExtendedAgentCard for an authenticated peer, from the snapshot of the call. */
@Injectable()
export class ExtendedAgentCardService {
  constructor(
    private readonly config: ConfigStore,
    private readonly routing: RoutingService,
  ) {}

  extendedCard(peer: string, origin: string, params: unknown): AgentCard {
    checkExtendedCardParams(params);
    const snapshot = this.config.current();
    const agents = reachableAgents(snapshot, (inbound) => this.routing.resolve(inbound), peer);
    return buildExtendedAgentCard(snapshot.config, origin, agents);
  }
}
