/**
 * A config with `agents` agents shaped like a larger deployment, for the topology's picture at scale
 * (test/topology/topology.e2e-spec.ts and bench/topology.bench.ts): four teams whose members may message each other
 * (agent-to-agent allow patterns per team prefix), a sandboxed agent per team, one binding per agent on a few
 * channels and accounts, memory grants from each team lead to its members' notes, and A2A peers in and out.
 * Names carry characters the picture has to escape.
 */
export function largeTopologyConfig(agents = 50): string {
  const teams = ['sales', 'support', 'ops', 'research'];
  const ids = Array.from({ length: agents }, (_, i) => `${teams[i % teams.length]}-${String(i).padStart(2, '0')}`);
  const list = ids.map((id, i) => {
    const lead = i < teams.length;
    const members = lead ? ids.filter((m, j) => j % teams.length === i && m !== id).slice(0, 3) : [];
    const grants = members.map((m) => `{ path: "~/ws/${m}/notes", name: "${m}-notes" }`).join(', ');
    return `{ id: "${id}", workspace: "~/ws/${id}", identity: { name: "${id} <${teams[i % teams.length]}> & co" }${
      i % 12 === 11 ? ', sandbox: { mode: "all" }' : ''
    }${grants ? `, memorySearch: { qmd: { extraCollections: [${grants}] } }` : ''} }`;
  });
  const channels = ['http', 'whatsapp', 'discord', 'slack'];
  const bindings = ids.map((id, i) => {
    const channel = channels[i % channels.length];
    const match = i % 5 === 0 ? `accountId: "acc-${i % 3}"` : `peer: { kind: "direct", id: "user-${i}" }`;
    return `{ agentId: "${id}", match: { channel: "${channel}", ${match} } }`;
  });
  return `{
    agents: { list: [${list.join(',\n')}] },
    bindings: [${bindings.join(',\n')}],
    tools: { agentToAgent: { enabled: true, allow: ["sales-*", "support-*", "ops-0*"] }, sessions: { visibility: "all" } },
    memory: { backend: "qmd", embeddings: { provider: "none" } },
    channels: {
      http: { enabled: true, accounts: { "acc-0": { token: "acc0-account-token-0123456789abcdef" } } },
      a2a: { enabled: true, exposeAgents: ["${ids[0]}", "${ids[1]}", "${ids[2]}"], peers: {
        hermes: { token: "hermes-inbound-token-0123456789abcdef" },
        iris: { token: "iris-inbound-token-0123456789abcdef", url: "https://iris.example/a2a/v1" },
        zeus: { token: "zeus-inbound-token-0123456789abcdef", url: "https://zeus.example/a2a/v1" },
      } },
    },
  }`;
}
