#!/usr/bin/env node
// `npm start`: the bundled demo config with state in ./data. The demo tokens below are defaults for a
// local, loopback-only demo; any value already in the environment wins. They are not secrets.
const { spawn } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const env = {
  ...process.env,
  CLAWGATE_DEMO_PEER_TOKEN: process.env.CLAWGATE_DEMO_PEER_TOKEN || 'demo-peer-token',
  CLAWGATE_DEMO_HTTP_TOKEN: process.env.CLAWGATE_DEMO_HTTP_TOKEN || 'demo-http-token',
};
const args = [
  path.join(root, 'dist', 'cli.js'),
  'gateway',
  '--config',
  process.env.OPENCLAW_CONFIG_PATH || path.join(root, 'config', 'openclaw.json'),
  '--state-dir',
  process.env.OPENCLAW_STATE_DIR || path.join(root, 'data'),
  ...process.argv.slice(2),
];
const child = spawn(process.execPath, args, { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
