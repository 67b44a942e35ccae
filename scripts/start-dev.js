#!/usr/bin/env node
// `npm run start:dev`: the same demo as `npm start`, under `nest start --watch`. The Nest CLI compiles src/
// with tsconfig.build.json into dist/ (nest-cli.json), runs dist/cli.js with the arguments after `--`, and
// on every change to a source file compiles again and restarts the gateway. The child inherits this
// process's environment, which is how the demo tokens reach it.
//
// The Nest CLI starts the gateway through `sh -c` (it needs the shell to unquote the arguments it passes).
// `--exec 'exec node'` makes that shell replace itself with node, so the SIGTERM or Ctrl+C the CLI passes on
// reaches the gateway itself, which then stops as it does under `npm start`, instead of a shell that dies
// and leaves the gateway running.
const { spawn } = require('node:child_process');
const { demoEnv, demoGatewayArgs, exitWith } = require('./demo-gateway');

const nest = require.resolve('@nestjs/cli/bin/nest.js');
const args = [nest, 'start', '--watch', '--preserveWatchOutput', '--exec', 'exec node', '--', ...demoGatewayArgs(process.argv.slice(2))];
exitWith(spawn(process.execPath, args, { stdio: 'inherit', env: demoEnv() }));
