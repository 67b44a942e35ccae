#!/usr/bin/env node
// `npm start`: the bundled demo (scripts/demo-gateway.js) on the built CLI, dist/cli.js.
const { spawn } = require('node:child_process');
const path = require('node:path');
const { root, demoEnv, demoGatewayArgs, exitWith } = require('./demo-gateway');

const args = [path.join(root, 'dist', 'cli.js'), ...demoGatewayArgs(process.argv.slice(2))];
exitWith(spawn(process.execPath, args, { stdio: 'inherit', env: demoEnv() }));
