import type { NormalizedConfig, ResolvedAgent } from './config.types';

/** Exposed agents per config object: read on every SendMessage and every scrape, and a snapshot never changes. */
const exposedByConfig = new WeakMap<NormalizedConfig, ResolvedAgent[]>();

/**
 * Agents published on the Agent Card and reachable by A2A peers: `channels.a2a.exposeAgents` in its order (configured
 * ones only), else all. One rule for the card, the A2A routing, the topology and the names an anonymous `/metrics`
 * scrape may see.
 */
export function exposedAgents(config: NormalizedConfig): ResolvedAgent[] {
  const { exposeAgents } = config.channels.a2a;
  if (exposeAgents === null) return config.agents;
  let exposed = exposedByConfig.get(config);
  if (!exposed) {
    const byId = new Map(config.agents.map((a) => [a.id, a]));
    exposed = exposeAgents.flatMap((id) => byId.get(id) ?? []);
    exposedByConfig.set(config, exposed);
  }
  return exposed;
}
