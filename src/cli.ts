#!/usr/bin/env node
import 'reflect-metadata';
import { Command, InvalidArgumentError } from 'commander';
import { runConfigSchema, runConfigValidate, runGateway } from './cli/commands';

/** `clawgate` — run the gateway and work with openclaw.json from the shell. */
export function buildCli(): Command {
  const program = new Command('clawgate')
    .description('Declarative multi-agent gateway: openclaw.json → agents, routing, A2A')
    .showHelpAfterError();

  program
    .command('gateway')
    .description('run the gateway (hot-reloads openclaw.json)')
    .option('--config <path>', 'config file (default: $OPENCLAW_CONFIG_PATH, then <state-dir>/openclaw.json, then ~/.openclaw/openclaw.json)')
    .option('--state-dir <dir>', 'state directory (default: $OPENCLAW_STATE_DIR, then ~/.openclaw)')
    .option('--port <port>', 'listen on this port instead of gateway.port (0 = any free port)', parsePort)
    .action(runGateway);

  const config = program.command('config').description('check and describe openclaw.json');
  config
    .command('validate [path]')
    .description('validate a config file; prints "ok (revision <hash>)" or every error (exit 1)')
    .option('--state-dir <dir>', 'state directory used to resolve default paths')
    .action(runConfigValidate);
  config.command('schema').description('print the JSON Schema of openclaw.json').action(runConfigSchema);
  return program;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError('must be an integer 0..65535');
  return port;
}

if (require.main === module) {
  buildCli()
    .parseAsync(process.argv)
    .catch((err: Error) => {
      process.stderr.write(`clawgate: ${err.message}\n`);
      process.exit(1);
    });
}
