#!/usr/bin/env node
import 'reflect-metadata';
import { Command, InvalidArgumentError } from 'commander';
import { runAgentsAdd, runAgentsBind, runAgentsDelete, runAgentsSetIdentity, runAgentsUnbind } from './cli/agents-commands';
import { runAgentsList } from './cli/agents-list-command';
import type { LocateOptions } from './cli/cli-config-edit';
import { runConfigSchema, runConfigValidate, runGateway } from './cli/commands';
import { runGatewayReload, runGatewayStatus } from './cli/gateway-remote-commands';
import { packageVersion } from './cli/package-version';
import { runConfigPlan } from './cli/config-plan-command';
import { runChannelsAdd, runChannelsList } from './cli/channels-commands';
import { runPairingApprove, runPairingDeny, runPairingList } from './cli/pairing-commands';
import { runDoctor } from './cli/doctor-command';
import { runPluginsDisable, runPluginsEnable, runPluginsInfo, runPluginsList } from './cli/plugins-commands';
import { runPluginsDoctor } from './cli/plugins/plugins-doctor';
import { runPluginsInstall } from './cli/plugins/plugins-install';
import { runPluginsUninstall } from './cli/plugins/plugins-uninstall';
import { runSessionsExport } from './cli/sessions-commands';
import { runRemoteSessionsExport, runSessionsList, runSessionsShow } from './cli/remote-sessions-commands';
import { runTasksCancel, runTasksList, runTasksShow } from './cli/tasks-commands';
import { runRunsKill, runRunsSteer, runRunsTree } from './cli/runs-commands';
import { runApprovalsApprove, runApprovalsDeny, runApprovalsList } from './cli/approvals-commands';
import { runUsage } from './cli/usage-command';
import { runMcpServe } from './cli/mcp-serve-command';
import { exitQuietlyWhenReaderGoesAway } from './cli/reader-gone';

/** `clawgate` — run the gateway and work with openclaw.json from the shell. */
export function buildCli(): Command {
  const program = new Command('clawgate')
    .description('Declarative multi-agent gateway: openclaw.json → agents, routing, A2A')
    .version(packageVersion(), '-V, --version', 'print the clawgate version')
    .showHelpAfterError();

  const gateway = program
    .command('gateway')
    .description('run the gateway (hot-reloads openclaw.json)')
    .option(
      '--config <path>',
      'config file (default: $OPENCLAW_CONFIG_PATH, then <state-dir>/openclaw.json, then ~/.openclaw/openclaw.json)',
    )
    .option('--state-dir <dir>', 'state directory (default: $OPENCLAW_STATE_DIR, then ~/.clawgate)')
    .option('--port <port>', 'listen on this port instead of gateway.port (0 = any free port)', parsePort)
    .option('--log-format <format>', 'auto (pretty on a terminal, else JSON), pretty or json (default: $CLAWGATE_LOG_FORMAT, then auto)')
    .option('--log-level <level>', 'trace, debug, info, warn, error, fatal or silent (default: $CLAWGATE_LOG_LEVEL, then info)')
    .action(runGateway);
  gateway
    .command('status')
    .description('show the revision, reload state and last rejected change of a running gateway ($CLAWGATE_URL, $CLAWGATE_TOKEN)')
    .option('--json', 'one JSON document on stdout: url and the /admin/config/status answer')
    .action(runGatewayStatus);
  gateway
    .command('reload')
    .description('make a running gateway reload openclaw.json now; exit 1 if it rejects the file ($CLAWGATE_URL, $CLAWGATE_TOKEN)')
    .option('--json', 'print the answer (outcome, or the problem with errors[]) as one JSON document')
    .action(runGatewayReload);

  const config = program.command('config').description('check and describe openclaw.json');
  config
    .command('validate [path]')
    .description('validate a config file; prints "ok (revision <hash>; config <path>, state dir <dir>)" or every error (exit 1)')
    .option('--state-dir <dir>', 'state directory used to resolve default paths')
    .action(runConfigValidate);
  config
    .command('schema')
    .description("print the JSON Schema of openclaw.json, with the config's plugins in it when the config loads")
    .option('--config <path>', 'config file whose plugins to include')
    .option('--state-dir <dir>', 'state directory (its extensions/ are searched for plugins)')
    .option('--no-plugins', 'the schema of clawgate alone')
    .action(runConfigSchema);
  config
    .command('plan <path>')
    .description(
      'ask the running gateway what this file would change, applying nothing ($CLAWGATE_URL, default http://127.0.0.1:18789; $CLAWGATE_TOKEN: an admin token); exit 1 when invalid',
    )
    .option('--json', 'print the plan as the JSON the gateway answered')
    .action(runConfigPlan);

  program
    .command('doctor')
    .description(
      "find OpenClaw's legacy layout (agent, identity, routing, providers, logLevel) and retired spellings and say where each goes, and the keys neither OpenClaw nor clawgate knows; --fix moves the first and removes the others (a likely typo is left to rename), keeping comments, after copying the file to <file>.bak; exit 1 while the file does not load",
    )
    .option('--fix', 'rewrite the file')
    .option('--config <path>', 'config file')
    .option('--state-dir <dir>', 'state directory')
    .action(runDoctor);

  const agents = program
    .command('agents')
    .description('list and edit agents in openclaw.json (comments are kept; a running gateway reloads)');
  const locate = (cmd: Command) => cmd.option('--config <path>', 'config file').option('--state-dir <dir>', 'state directory');
  locate(
    agents
      .command('list')
      .description('list agents (first line: the config and state dir used)')
      .option('--bindings', "also show each agent's bindings")
      .option('--json', 'one JSON document on stdout: configPath, stateDir, agents (with their bindings)'),
  ).action(runAgentsList);
  locate(
    agents
      .command('add <id>')
      .description('add an agent')
      .option('--name <name>', 'display name')
      .option('--workspace <dir>', 'workspace directory')
      .option('--model <provider/model>', 'model, e.g. echo/default or anthropic/claude-sonnet-4-6'),
  ).action(runAgentsAdd);
  locate(
    agents
      .command('set-identity <id>')
      .description('set the identity shown for an agent')
      .option('--name <name>', 'identity name')
      .option('--emoji <emoji>', 'identity emoji')
      .option('--avatar <url>', 'avatar URL or path'),
  ).action(runAgentsSetIdentity);
  locate(
    agents
      .command('bind <id>')
      .description('route messages matching a channel (and account/peer) to an agent')
      .requiredOption('--channel <channel>', 'channel id, e.g. http, telegram')
      .option('--account <accountId>', 'account id ("*" = any account)')
      .option('--peer <kind:id>', 'peer, e.g. group:family-group or direct:+15550100'),
  ).action(runAgentsBind);
  locate(
    agents
      .command('unbind <id>')
      .description('remove the binding added by `bind` with the same options')
      .requiredOption('--channel <channel>', 'channel id of the binding')
      .option('--account <accountId>', 'account id of the binding')
      .option('--peer <kind:id>', 'peer of the binding'),
  ).action(runAgentsUnbind);
  locate(agents.command('delete <id>').description('remove an agent and its bindings')).action(runAgentsDelete);

  const plugins = program
    .command('plugins')
    .description('the plugins this config finds: switching them on or off, installing them into the state dir, checking them');
  locate(
    plugins
      .command('list')
      .description('every plugin found, with its state (enabled, disabled, refused) and why')
      .option('--json', 'one JSON document on stdout: configPath, stateDir, plugins'),
  ).action(runPluginsList);
  locate(
    plugins
      .command('info <id>')
      .description('one plugin: its manifest, state, contracts and config (secrets masked)')
      .option('--json', 'one JSON document on stdout'),
  ).action(runPluginsInfo);
  locate(
    plugins
      .command('enable <id>')
      .description('set plugins.entries.<id>.enabled to true (comments kept)')
      .option('--json', 'print id, enabled, configPath and revision as one JSON document'),
  ).action(runPluginsEnable);
  locate(
    plugins
      .command('disable <id>')
      .description('set plugins.entries.<id>.enabled to false (comments kept)')
      .option('--json', 'print id, enabled, configPath and revision as one JSON document'),
  ).action(runPluginsDisable);
  locate(
    plugins
      .command('install <source>')
      .description(
        'copy a plugin (a directory, a .tgz or an npm spec) into <state dir>/extensions/<id>/, manifest checked first, dependencies installed without scripts; it stays disabled unless --enable',
      )
      .option('--link', 'symlink the plugin directory instead of copying it (its dependencies are its own)')
      .option('--enable', 'also set plugins.entries.<id>.enabled to true (comments kept)')
      .option('--json', 'one JSON document on stdout: id, version, dir, source, dependencies, enabled'),
  ).action(runPluginsInstall);
  locate(
    plugins
      .command('uninstall <id>')
      .description('remove plugins.entries.<id> (comments kept), then <state dir>/extensions/<id>/')
      .option('--json', 'one JSON document on stdout: id, dir, configPath, revision'),
  ).action(runPluginsUninstall);
  locate(
    plugins
      .command('doctor')
      .description('check every plugin found (manifest, entry, owner, modes, symlinks); each problem with its fix, exit 1 if any')
      .option('--json', 'one JSON document on stdout: ok, plugins, problems'),
  ).action(runPluginsDoctor);

  const remote = '($CLAWGATE_URL, default http://127.0.0.1:18789; $CLAWGATE_TOKEN)';
  const channels = program.command('channels').description('chat channels: their health, and setting one up in openclaw.json');
  channels
    .command('list')
    .description(`every channel of a running gateway with its plugin, state and accounts' health ${remote}`)
    .option('--json', 'print the list as the JSON the gateway answered')
    .action(runChannelsList);
  locate(
    channels
      .command('add <id>')
      .description(
        "write channels.<id> from the setup fields of the channel's manifest (comments kept), e.g. channels add a2a --advertised-url " +
          'https://gw.example --peer-name hermes --peer-token-env A2A_HERMES_TOKEN; a secret only as --<flag>-env NAME or --<flag>-stdin',
      )
      .option('--json', 'print channel, the keys written, configPath and revision as one JSON document')
      .allowUnknownOption()
      .allowExcessArguments(),
  ).action((id: string, opts: LocateOptions & { json?: boolean }, command: Command) => runChannelsAdd(id, opts, command.args.slice(1)));

  const pairing = program.command('pairing').description(`DM pairing of the chat channels of a running gateway ${remote}`);
  pairing
    .command('list [channel]')
    .description('pending codes and approved senders, per chat channel')
    .option('--json', 'print the answer as the JSON the gateway answered')
    .action(runPairingList);
  pairing
    .command('approve <channel> <code>')
    .description("approve a sender's pairing code: their next message reaches the agent (operator role)")
    .option('--json', 'print the decision as the JSON the gateway answered')
    .action(runPairingApprove);
  pairing
    .command('deny <channel> <code>')
    .description('drop a pairing code (operator role)')
    .option('--json', 'print the decision as the JSON the gateway answered')
    .action(runPairingDeny);

  const sessions = program
    .command('sessions')
    .description(`sessions of a running gateway ${remote}; export also reads a state dir directly`);
  sessions
    .command('list')
    .description('list sessions, most recently updated first, a page at a time')
    .option('--agent <id>', 'only this agent')
    .option('--label <label>', 'only the session with this label')
    .option('--limit <n>', 'sessions per page (1..500, default 50)')
    .option('--cursor <cursor>', 'the page after the one that printed "more: --cursor …"')
    .option('--json', 'print the page as the JSON the gateway answered')
    .action(runSessionsList);
  sessions
    .command('show <key>')
    .description('one session entry, e.g. agent:main:main; with --transcript its last lines too')
    .option('--transcript [lines]', 'also print the last lines of the transcript (default 20, at most 1000)')
    .option('--json', 'print the entry (with --transcript: {entry, history}) as the JSON the gateway answered')
    .action(runSessionsShow);
  locate(
    sessions
      .command('export <key>')
      .description('write a session transcript as JSONL (stdout, or --out): read from the state dir, or with --remote from the gateway')
      .option('-o, --out <file>', 'write to this new file (created 0600; an existing file is not overwritten)')
      .option('--remote', `ask the running gateway instead of reading the state dir ${remote}`),
  ).action((key: string, opts: { out?: string; remote?: boolean; config?: string; stateDir?: string }) =>
    opts.remote ? runRemoteSessionsExport(key, opts) : runSessionsExport(key, opts),
  );

  const tasks = program.command('tasks').description(`A2A tasks peers created on a running gateway ${remote}`);
  tasks
    .command('list')
    .description('list tasks, newest first')
    .option('--peer <name>', 'only tasks of this peer')
    .option('--state <state>', 'only tasks in this state (e.g. working, completed, canceled)')
    .option('--limit <n>', 'at most this many tasks')
    .option('--json', 'print the list as the JSON the gateway answered')
    .action(runTasksList);
  tasks
    .command('show <id>')
    .description('one task, with its reply')
    .option('--json', 'print the task as the JSON the gateway answered')
    .action(runTasksShow);
  tasks
    .command('cancel <id>')
    .description('cancel a task: aborts its agent run (needs the operator role); exit 1 if it is already over')
    .option('--json', 'print the canceled task as the JSON the gateway answered')
    .action(runTasksCancel);

  const runs = program.command('runs').description(`agent runs and the runs they started, on a running gateway ${remote}`);
  runs
    .command('tree <id>')
    .description('the run and every run it started, recursively: state, agent, session, model, tokens, cost, elapsed (operator role)')
    .option('--json', 'print the tree as the JSON the gateway answered')
    .action(runRunsTree);
  runs
    .command('kill <id>')
    .description('abort the run and every run below it, and wait until they have stopped (operator role); exit 1 if all are over')
    .option('--json', 'print what was aborted and the tree as the JSON the gateway answered')
    .action(runRunsKill);
  runs
    .command('steer <sessionKey> <message>')
    .description('deliver a message to a session as its next turn, queued behind the run in progress (operator role)')
    .option('--json', 'print the answer as the JSON the gateway answered')
    .action(runRunsSteer);

  const approvals = program
    .command('approvals')
    .description(`tool calls that wait for an operator's decision (tools.requiresApproval), on a running gateway ${remote}`);
  approvals
    .command('list')
    .description('the calls waiting now: id, agent, tool, arguments, where the message came from, until when (viewer role)')
    .option('--all', 'every approval kept, decided ones too, newest first')
    .option('--json', 'print the approvals as the JSON the gateway answered')
    .action(runApprovalsList);
  approvals
    .command('approve <id>')
    .description('let the call go ahead: the run calls the tool and goes on (operator role); exit 1 if it was already decided')
    .option('--note <text>', 'why (kept with the decision)')
    .option('--json', 'print the decided approval as the JSON the gateway answered')
    .action(runApprovalsApprove);
  approvals
    .command('deny <id>')
    .description('refuse the call: the model is told, with the note, and goes on without it (operator role)')
    .option('--note <text>', 'why (given to the model)')
    .option('--json', 'print the decided approval as the JSON the gateway answered')
    .action(runApprovalsDeny);

  program
    .command('usage')
    .description(`model tokens and cost of a running gateway, grouped ${remote}`)
    .option('--by <group>', 'agent, session, peer, key, account or model (default agent)')
    .option('--since <when>', 'start of the window: a duration back from now (24h, 7d) or an ISO 8601 time (default 24h)')
    .option('--until <when>', 'end of the window (default now)')
    .option('--bucket <size>', 'split per hour or day')
    .option('--json', 'print the groups as the JSON the gateway answered')
    .action(runUsage);

  const mcp = program.command('mcp').description('the Model Context Protocol: agents as the tools of an MCP server');
  locate(
    mcp
      .command('serve')
      .description(
        "an MCP server on stdio for desktop clients, bridged to the running gateway's /mcp (CLAWGATE_URL, else the config's port; key: CLAWGATE_MCP_KEY, else the config's); stdout carries only protocol messages",
      )
      .requiredOption('--agent <id>', 'the agent offered as the tool ask_<id>')
      .option('--key <name>', 'the key of gateway.http.endpoints.mcp.keys to present (default: the first that may reach the agent)'),
  ).action(runMcpServe);
  return program;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError('must be an integer 0..65535');
  return port;
}

if (require.main === module) {
  exitQuietlyWhenReaderGoesAway();
  buildCli()
    .parseAsync(process.argv)
    .catch((err: Error) => {
      process.stderr.write(`clawgate: ${err.message}\n`);
      process.exit(1);
    });
}
