import { suggestClosest } from '../common/text/did-you-mean';
import { formatConfigIssue, loadConfig, locateConfig, type ChannelSetupField, type RuntimeSnapshot } from '../modules/config';
import { parseSetupArgs, planChannelSetup, setupPatch } from './channel-setup';
import { editConfigFromCli, type LocateOptions } from './cli-config-edit';
import { callGateway, fail } from './gateway-client';

/**
 * `clawgate channels list` (the running gateway's channels and their health, through /admin/channels) and
 * `clawgate channels add <id> <setup flags>` (writes `channels.<id>` from the setup fields the channel's manifest
 * declares, with the comment-keeping writer). docs/channels.md#operations.
 */

interface ChannelStatus {
  id: string;
  plugin: string;
  enabled: boolean;
  state: string;
  error?: string;
  accounts: Array<{ accountId: string; state: string; error?: string; messagesIn: number; messagesOut: number; deliveryFailures: number }>;
}

const out = (line: string): void => void process.stdout.write(`${line}\n`);

export async function runChannelsList(opts: { json?: boolean }): Promise<void> {
  const res = await callGateway('GET', '/admin/channels');
  if (!res) return;
  const body = res.body as { channels: ChannelStatus[] };
  if (opts.json) return out(JSON.stringify(body, null, 2));
  for (const c of body.channels) {
    out(`${c.id}  ${c.plugin}  ${c.state}${c.enabled ? '' : ' (disabled)'}${c.error ? `: ${c.error}` : ''}`);
    for (const a of c.accounts) {
      out(
        `  ${a.accountId}  ${a.state}${a.error ? `: ${a.error}` : ''}  in ${a.messagesIn}, out ${a.messagesOut}, failed deliveries ${a.deliveryFailures}`,
      );
    }
  }
}

type AddOptions = LocateOptions & { json?: boolean };

export async function runChannelsAdd(id: string, opts: AddOptions, args: readonly string[]): Promise<void> {
  const { configPath, stateDir } = locateConfig({ cliConfig: opts.config, cliStateDir: opts.stateDir, env: process.env });
  const loaded = await loadConfig({ configPath, stateDir, env: process.env });
  if (!loaded.ok) {
    for (const e of loaded.errors) process.stderr.write(`error: ${formatConfigIssue(e)}\n`);
    return void fail(`${configPath} is invalid; fix it before adding a channel`);
  }
  const setup = setupFields(loaded.snapshot, id);
  if ('error' in setup) return void fail(setup.error);
  const parsed = parseSetupArgs(setup.fields, args);
  if ('error' in parsed) return void fail(`channels add ${id}: ${parsed.error}`);
  if (parsed.stdinFlag) {
    const secret = (await readStdin()).replace(/\r?\n$/, '');
    if (!secret) return void fail(`channels add ${id}: ${parsed.stdinFlag}: nothing was read from stdin`);
    for (const v of parsed.values) if (v.value === '' && v.field.sensitive) v.value = secret;
    process.stderr.write(`note: the secret read from stdin is written into ${configPath}; --<flag>-env keeps it out of the file\n`);
  }
  const built = setupPatch(parsed.values);
  if (typeof built === 'string') return void fail(`channels add ${id}: ${built}`);
  const patch = built;
  await editConfigFromCli(opts, planChannelSetup(id, patch), `set up channel ${id}`, { jsonFields: { channel: id, keys: keysOf(patch) } });
}

/** The setup fields of a channel: those of the manifest of the plugin that provides it (the bundled ones included). */
function setupFields(snapshot: RuntimeSnapshot, id: string): { fields: readonly ChannelSetupField[] } | { error: string } {
  const channels = new Map<string, readonly ChannelSetupField[]>();
  for (const plugin of snapshot.plugins.values()) {
    if (!plugin.manifest || plugin.state === 'refused') continue;
    for (const channel of plugin.manifest.contracts.channels) channels.set(channel, plugin.manifest.channelConfigs[channel]?.setup ?? []);
  }
  const fields = channels.get(id);
  if (fields) return { fields };
  const hint = suggestClosest(id, [...channels.keys()]);
  return {
    error: `no channel "${id}"${hint ? ` (did you mean "${hint}"?)` : ''}; the channels that can be set up are ${[...channels.keys()].join(', ')}`,
  };
}

/** The dotted keys a patch writes (for --json: never the values, which may be secrets). */
function keysOf(patch: Record<string, unknown>, at = ''): string[] {
  return Object.entries(patch).flatMap(([key, value]) =>
    value && typeof value === 'object' && Object.keys(value).length
      ? keysOf(value as Record<string, unknown>, `${at}${key}.`)
      : [`${at}${key}`],
  );
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
