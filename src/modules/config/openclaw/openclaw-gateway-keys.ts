import { implemented, legacy, OpenClawKey, refused, unsupported, unsupportedNames } from './openclaw-key-tree';

/** OpenClaw's `gateway` section (openclaw-keys.ts): the listener, reloads, the HTTP endpoints, auth and TLS. */
export const GATEWAY_KEYS: OpenClawKey = implemented({
  port: implemented(),
  bind: implemented(),
  trustedProxies: implemented(),
  reload: implemented({ mode: implemented(), debounceMs: implemented(), deferralTimeoutMs: unsupported() }),
  http: implemented({
    endpoints: implemented({
      chatCompletions: implemented({ enabled: implemented(), images: unsupported() }),
      responses: unsupported(),
    }),
    securityHeaders: unsupported(),
  }),
  mode: implemented(),
  customBindHost: implemented(),
  auth: implemented({
    mode: implemented(),
    token: implemented(),
    password: implemented(),
    trustedProxy: implemented({
      userHeader: implemented(),
      allowLoopback: implemented(),
      requiredHeaders: refused('ignoring it would believe requests without the headers it requires of the proxy'),
      allowUsers: refused('ignoring it would let in every user the proxy authenticates, not only those listed'),
      deviceAutoApprove: unsupported(),
    }),
    // Tailscale identity serves OpenClaw's Control UI and WebSocket, which clawgate does not have; ignoring it admits nobody.
    allowTailscale: unsupported(),
    identityScopes: unsupported(),
    // clawgate compares admin tokens by digest; a failed-auth limiter is defense in depth it does not have (docs/admin-security.md).
    rateLimit: unsupported(unsupportedNames('exemptLoopback lockoutMs maxAttempts windowMs')),
  }),
  tls: implemented({
    enabled: implemented(),
    autoGenerate: implemented(),
    certPath: implemented(),
    keyPath: implemented(),
    caPath: implemented(),
  }),
  webchat: legacy('removed by OpenClaw (WebChat is retired)'),
  ...unsupportedNames(`
    allowRealIpFallback channelHealthCheckMinutes channelMaxRestartsPerHour channelStaleEventThresholdMinutes cliAgents
    controlUi handshakeTimeoutMs identity nodes publicOrigin push remote tailscale terminal tools`),
});
