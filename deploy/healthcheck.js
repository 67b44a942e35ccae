#!/usr/bin/env node
// Container health check (the Dockerfile's HEALTHCHECK): exit 0 when GET /healthz answers 2xx within 3 s,
// else 1. CLAWGATE_HEALTHCHECK_URL points it elsewhere when the config's gateway.port is not 18789.
const url = process.env.CLAWGATE_HEALTHCHECK_URL || 'http://127.0.0.1:18789/healthz';
fetch(url, { signal: AbortSignal.timeout(3000) }).then(
  (res) => process.exit(res.ok ? 0 : 1),
  () => process.exit(1),
);
