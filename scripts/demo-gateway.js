// The bundled demo that `npm start` and `npm run start:dev` both run: config/openclaw.json with state in
// ./data. The demo tokens below are defaults for a local, loopback-only demo; any value already in the
// environment wins. They are not secrets.
const path = require('node:path');

const root = path.resolve(__dirname, '..');

/** The environment of the demo gateway: the caller's, with the demo tokens filled in where unset. */
function demoEnv() {
  return {
    ...process.env,
    CLAWGATE_DEMO_PEER_TOKEN: process.env.CLAWGATE_DEMO_PEER_TOKEN || 'demo-peer-token',
    CLAWGATE_DEMO_HTTP_TOKEN: process.env.CLAWGATE_DEMO_HTTP_TOKEN || 'demo-http-token',
  };
}

/** `clawgate gateway` with the demo's config and state dir, then whatever the caller added (e.g. `--port 0`). */
function demoGatewayArgs(extra) {
  return [
    'gateway',
    '--config',
    process.env.OPENCLAW_CONFIG_PATH || path.join(root, 'config', 'openclaw.json'),
    '--state-dir',
    process.env.OPENCLAW_STATE_DIR || path.join(root, 'data'),
    ...extra,
  ];
}

/** Runs the child until it ends, passing Ctrl+C and SIGTERM on, and exits with its status. */
function exitWith(child) {
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
}

module.exports = { root, demoEnv, demoGatewayArgs, exitWith };
