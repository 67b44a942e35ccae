import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isRecord } from '../../../common/is-record';
import { toDottedPath } from '../pipeline/config-issue';
import type { ManifestChannel, PluginManifest } from './plugin-catalog.types';
import { withChannelCommonKeys } from './channel-common-schema';
import { manifestSchema } from './manifest-schema';
import { compileManifestSchema, pluginAjv } from './plugin-ajv';
import { schemaProblems } from './schema-issues';

/** The manifest file names, in the order they are looked for: clawgate's own first. */
export const MANIFEST_FILES = { clawgate: 'clawgate.plugin.json', openclaw: 'openclaw.plugin.json' } as const;

/**
 * Channels whose section is the core's (validated, normalized and documented with the rest of the config: `channels.a2a`,
 * `channels.http`, and `gateway.http.endpoints.chatCompletions` for `openai`): no plugin may provide them, except the
 * bundled plugin that serves it (the A2A channel's, the http channel's, the OpenAI-compatible endpoint's). Its
 * `channelConfigs.<id>` gives no schema (the core's is the one), only setup fields.
 */
export const CORE_CHANNELS: ReadonlySet<string> = new Set(['a2a', 'http', 'openai']);
/** A manifest is metadata; anything larger is not one. */
const MAX_MANIFEST_BYTES = 1024 * 1024;

export type ManifestRead =
  | { ok: true; manifest: PluginManifest; manifestFile: string; entryFile: string }
  | { ok: false; problem: string; manifestFile?: string };

const ajv = pluginAjv();
const checkManifest = { clawgate: ajv.compile(manifestSchema('clawgate')), openclaw: ajv.compile(manifestSchema('openclaw')) };

/**
 * Reads and checks the manifest of the plugin at `root` without running any of its code: the file's
 * fields and their types, its config schema and its channels' schemas compiled, its entry resolved
 * (`entry`, else package.json `main`, else `index.js`) and kept inside `root` as written. A problem names
 * the file and the field, for the catalog's `refused` reason.
 */
export async function readManifest(root: string, options: { bundled?: boolean } = {}): Promise<ManifestRead> {
  const found: Array<{ format: 'clawgate' | 'openclaw'; file: string; text: string }> = [];
  for (const format of ['clawgate', 'openclaw'] as const) {
    const file = path.join(root, MANIFEST_FILES[format]);
    const text = await readSmallFile(file);
    if (text !== undefined) found.push({ format, file, text });
  }
  if (!found.length) return { ok: false, problem: `no ${MANIFEST_FILES.clawgate} or ${MANIFEST_FILES.openclaw} in ${root}` };

  const parsed: Array<{ format: 'clawgate' | 'openclaw'; file: string; value: Record<string, unknown> }> = [];
  for (const { format, file, text } of found) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      return { ok: false, manifestFile: file, problem: `${file}: not valid JSON (${(err as Error).message})` };
    }
    const problem = shapeProblem(format, value);
    if (problem) return { ok: false, manifestFile: file, problem: `${file}: ${problem}` };
    parsed.push({ format, file, value: value as Record<string, unknown> });
  }
  const [chosen, other] = parsed;
  if (other && other.value.id !== chosen.value.id) {
    return {
      ok: false,
      manifestFile: chosen.file,
      problem: `${chosen.file}: id: "${String(chosen.value.id)}" does not match the id "${String(other.value.id)}" of ${other.file}`,
    };
  }
  const built = buildManifest(chosen.format, chosen.value, options.bundled === true);
  if (typeof built === 'string') return { ok: false, manifestFile: chosen.file, problem: `${chosen.file}: ${built}` };

  const entry = built.entry ?? (await packageMain(root)) ?? 'index.js';
  const entryFile = path.resolve(root, entry);
  const relative = path.relative(root, entryFile);
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    return { ok: false, manifestFile: chosen.file, problem: `${chosen.file}: entry: ${JSON.stringify(entry)} is outside the plugin's directory` };
  }
  return { ok: true, manifest: built, manifestFile: chosen.file, entryFile };
}

/** The field that is wrong, as `<dotted field>: <what is wrong>`; undefined when the shape is right. */
function shapeProblem(format: 'clawgate' | 'openclaw', value: unknown): string | undefined {
  const check = checkManifest[format];
  if (check(value)) return undefined;
  const problems = schemaProblems(check.errors ?? [], [], { quote: (_p, v) => JSON.stringify(v), isSecret: () => false });
  return problems.map((p) => `${toDottedPath(p.path) || '(the file)'}: ${p.message}`).join('; ');
}

/** The checked manifest, or what is wrong with its schemas or channels. */
function buildManifest(format: 'clawgate' | 'openclaw', raw: Record<string, unknown>, bundled: boolean): PluginManifest | string {
  const configSchema = raw.configSchema as Record<string, unknown>;
  const compiled = compileManifestSchema(configSchema);
  if ('problem' in compiled) return `configSchema: not a valid JSON Schema (${compiled.problem})`;

  const contracts = isRecord(raw.contracts) ? raw.contracts : {};
  const list = (value: unknown): string[] => (Array.isArray(value) ? (value as string[]) : []);
  const channels = [...new Set([...list(contracts.channels), ...list(raw.channels)])];
  const providers = [...new Set([...list(contracts.providers), ...list(raw.providers)])];
  // A bundled plugin is the gateway's own code: it may serve a core channel (its section stays the core's).
  const core = bundled ? undefined : channels.find((c) => CORE_CHANNELS.has(c));
  if (core) return `contracts.channels: "${core}" is a channel of clawgate itself`;

  const channelConfigs: Record<string, ManifestChannel> = {};
  const rawChannels = isRecord(raw.channelConfigs) ? raw.channelConfigs : {};
  for (const [channel, rawChannel] of Object.entries(rawChannels)) {
    const at = `channelConfigs.${channel}`;
    if (!channels.includes(channel)) return `${at}: "${channel}" is not in contracts.channels`;
    const spec = rawChannel as { schema?: Record<string, unknown>; secrets?: string[]; secretEnv?: string[]; setup?: ManifestChannel['setup'] };
    // A core channel's section is validated by the core's schema alone (one source of truth): its bundled plugin
    // names only how to set it up. Any other channel's section is validated by the schema its manifest gives.
    if (CORE_CHANNELS.has(channel)) {
      if (spec.schema) return `${at}.schema: channels.${channel} is validated by clawgate's own schema; give only its setup fields`;
    } else if (!spec.schema) {
      return `${at}.schema: is required (the JSON Schema of channels.${channel})`;
    }
    const channelSchema = spec.schema && compileManifestSchema(spec.schema);
    if (channelSchema && 'problem' in channelSchema) return `${at}.schema: not a valid JSON Schema (${channelSchema.problem})`;
    channelConfigs[channel] = {
      // The keys every channel shares (dmPolicy, allowFrom, groups, accounts, ...) join the plugin's own.
      ...(spec.schema ? { schema: withChannelCommonKeys(spec.schema) } : {}),
      ...(spec.secrets ? { secrets: spec.secrets } : {}),
      ...(spec.secretEnv ? { secretEnv: spec.secretEnv } : {}),
      ...(spec.setup ? { setup: spec.setup } : {}),
    };
  }
  if (format === 'clawgate') {
    // A core channel's schema is the core's (docs/configuration.md), not the manifest's.
    const bare = channels.find((c) => !channelConfigs[c] && !CORE_CHANNELS.has(c));
    if (bare) return `channelConfigs.${bare}: is required for the channel "${bare}" of contracts.channels (the JSON Schema of channels.${bare})`;
  }

  return {
    id: raw.id as string,
    ...optionalStrings(raw, ['name', 'description', 'version', 'entry'] as const),
    configSchema,
    contracts: { tools: list(contracts.tools), providers, channels, mcpServers: list(contracts.mcpServers) },
    channelConfigs,
    activation: raw.activation === 'channel' ? 'channel' : 'startup',
    secrets: [...new Set([...list(raw.secrets), ...(format === 'openclaw' ? sensitiveHints(raw.uiHints) : [])])],
    restartRequired: raw.restartRequired === true,
    format,
  };
}

function optionalStrings<K extends string>(raw: Record<string, unknown>, keys: readonly K[]): Partial<Record<K, string>> {
  return Object.fromEntries(keys.filter((k) => typeof raw[k] === 'string').map((k) => [k, raw[k]])) as Partial<Record<K, string>>;
}

/** OpenClaw marks secret config fields in `uiHints: { "<dotted key>": { sensitive: true } }`. */
function sensitiveHints(uiHints: unknown): string[] {
  if (!isRecord(uiHints)) return [];
  return Object.entries(uiHints)
    .filter(([, hint]) => isRecord(hint) && hint.sensitive === true)
    .map(([key]) => key);
}

async function packageMain(root: string): Promise<string | undefined> {
  const text = await readSmallFile(path.join(root, 'package.json'));
  if (text === undefined) return undefined;
  try {
    const main = (JSON.parse(text) as { main?: unknown }).main;
    return typeof main === 'string' && main.length ? main : undefined;
  } catch {
    return undefined;
  }
}

/** The file's text, or undefined when there is no such file (or it is too large to be metadata). */
async function readSmallFile(file: string): Promise<string | undefined> {
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile() || stat.size > MAX_MANIFEST_BYTES) return undefined;
    return await fs.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}
