import { Injectable } from '@nestjs/common';
import type { A2aWireVersion } from '../../../common/a2a-protocol';
import { ConfigStore, type NormalizedConfig, type ResolvedAgent } from '../../config';
import { RoutingService } from '../../routing';
import { reachableAgents } from '../tasks/session-route';
import { buildAgentCard } from '../card/agent-card';
import { AgentCardSigner } from '../push/agent-card-signature';
import type { AgentCard } from '../card/agent-card.types';
import { toV03AgentCard, type V03AgentCard } from '../card/agent-card-v03';

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

/**
 * GetExtendedAgentCard for an authenticated peer, from the snapshot of the call: in the form of the call's version
 * (0.3 or 1.0) and signed in that form, since a signature covers exactly the card the peer reads.
 */
@Injectable()
export class ExtendedAgentCardService {
  constructor(
    private readonly config: ConfigStore,
    private readonly routing: RoutingService,
    private readonly signer: AgentCardSigner,
  ) {}

  extendedCard(peer: string, origin: string, wire: A2aWireVersion = '1.0'): Promise<AgentCard | V03AgentCard> {
    const snapshot = this.config.current();
    const agents = reachableAgents(snapshot, (inbound) => this.routing.resolve(inbound), peer);
    const card = buildExtendedAgentCard(snapshot.config, origin, agents);
    return this.signer.sign(wire === '0.3' ? toV03AgentCard(card) : card, origin);
  }
}
