import { compileAgentPattern } from '../../../common/agent-pattern';
import { findBySecret, secretIndexPerSource } from '../../../common/secrets/secret-match';
import type { ChatCompletionsKey, ResolvedAgent } from '../../config';

/** Token digests per keys array (snapshots are immutable, so an index lives exactly as long as its config). */
const keyIndex = secretIndexPerSource((keys: readonly ChatCompletionsKey[]) =>
  // A key whose ${VAR} is unset has no credential and can never authenticate.
  keys.filter((key) => key.usable).map((key) => ({ secret: key.token, value: key })),
);

/** The key whose token equals `presented`, or undefined; found by digest, timing-safe (see findBySecret). */
export function authenticateEndpointKey(
  keys: readonly ChatCompletionsKey[],
  presented: string | undefined,
): ChatCompletionsKey | undefined {
  return findBySecret(presented, keyIndex(keys));
}

const matchers = new WeakMap<ChatCompletionsKey, (agentId: string) => boolean>();

/** Whether `key` may use `agentId`: one of its patterns admits it (the syntax of tools.agentToAgent.allow). */
export function keyMayUse(key: ChatCompletionsKey, agentId: string): boolean {
  let matches = matchers.get(key);
  if (!matches) {
    const tests = key.agents.map(compileAgentPattern);
    matches = (id) => tests.some((test) => test(id));
    matchers.set(key, matches);
  }
  return matches(agentId);
}

/** The configured agents `key` may use, in config order (GET /v1/models). */
export function agentsForKey(key: ChatCompletionsKey, agents: readonly ResolvedAgent[]): ResolvedAgent[] {
  return agents.filter((agent) => keyMayUse(key, agent.id));
}
