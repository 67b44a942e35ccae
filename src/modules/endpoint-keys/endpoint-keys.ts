import { compileAgentPattern } from '../../common/agent-pattern';
import { findBySecret, secretIndexPerSource } from '../../common/secrets/secret-match';
import type { EndpointKey } from '../config';

/** Token digests per keys array (snapshots are immutable, so an index lives exactly as long as its config). */
const keyIndex = secretIndexPerSource((keys: readonly EndpointKey[]) =>
  // A key whose ${VAR} is unset has no credential and can never authenticate.
  keys.filter((key) => key.usable).map((key) => ({ secret: key.token, value: key })),
);

/** The key whose token equals `presented`, or undefined; found by digest, timing-safe (see findBySecret). */
export function authenticateEndpointKey(keys: readonly EndpointKey[], presented: string | undefined): EndpointKey | undefined {
  return findBySecret(presented, keyIndex(keys));
}

const matchers = new WeakMap<EndpointKey, (agentId: string) => boolean>();

/** Whether `key` may use `agentId`: one of its patterns admits it (the syntax of tools.agentToAgent.allow). */
export function keyMayUse(key: EndpointKey, agentId: string): boolean {
  let matches = matchers.get(key);
  if (!matches) {
    const tests = key.agents.map(compileAgentPattern);
    matches = (id) => tests.some((test) => test(id));
    matchers.set(key, matches);
  }
  return matches(agentId);
}

/** The configured agents `key` may use, in config order (GET /v1/models, the MCP server's tools). */
export function agentsForKey<A extends { id: string }>(key: EndpointKey, agents: readonly A[]): A[] {
  return agents.filter((agent) => keyMayUse(key, agent.id));
}
