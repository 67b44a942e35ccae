/** Tokens and the openclaw.json of the config write and history suites: every top-level section, each with comments. */
export const ADMIN = 'write-admin-token-1a2b3c4d';
export const VIEWER = 'write-viewer-token-5e6f7a8b';
export const WRITE_ENV = {
  ADMIN_TOKEN: ADMIN,
  VIEWER_TOKEN: VIEWER,
  HERMES_TOKEN: 'hermes-token-from-env-1',
  WEB_TOKEN: 'web-token-from-env-22',
};

export const EVERY_SECTION = `{
  "$schema": "./none.schema.json", // for editors
  // gateway: reloads and who may administer
  gateway: {
    reload: { debounceMs: 50 }, // quick reloads
    admin: {
      tokens: [
        { name: "root", token: "\${ADMIN_TOKEN}", role: "admin" }, // the admin
        { name: "ci", token: "\${VIEWER_TOKEN}", role: "viewer" },
      ],
    },
  },
  /* agents: two of them */
  agents: {
    defaults: { model: "echo/default" }, // every agent inherits
    list: [{ id: "main", default: true }, { id: "support" }],
  },
  // routes
  bindings: [{ agentId: "support", match: { channel: "http", accountId: "web" } }],
  tools: {
    agentToAgent: { enabled: false }, // off until asked
  },
  session: { dmScope: "main" }, // one session per agent
  memory: { backend: "builtin", embeddings: { provider: "none" } }, // keywords only
  models: { providers: { echo: { streamDelayMs: 0 } } }, // echo only
  channels: {
    a2a: {
      enabled: true,
      peers: { hermes: { token: "\${HERMES_TOKEN}" } }, // a peer
    },
    http: {
      enabled: true,
      accounts: { web: { token: "\${WEB_TOKEN}" } }, // the web widget
    },
  },
}
`;
