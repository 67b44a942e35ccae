import { toDottedPath, type RuntimeSnapshot } from '../config';
import { isSecretConfigPath } from '../../common/secrets/secret-paths';

/** A secret the running config holds, with where it sits (for warnings that must not show the value). */
export interface ConfiguredSecret {
  path: string;
  value: string;
}

const bySnapshot = new WeakMap<RuntimeSnapshot, ConfiguredSecret[]>();

/**
 * Every secret value of a snapshot: whatever sits at a secret path of the normalized config (the same rule
 * that redacts GET /admin/config — admin tokens, peer tokens and outboundTokens, http account tokens,
 * provider apiKeys and headers, the embeddings apiKey, any secret-named key added later, and the secret fields
 * plugins' manifests declare in their config and their channels' sections), plus the
 * provider keys the gateway reads from the environment (ANTHROPIC_API_KEY, OPENAI_API_KEY) and the variables a
 * configured channel's manifest says it reads a secret from (`channelConfigs.<id>.secretEnv`: TELEGRAM_BOT_TOKEN).
 */
export function configuredSecrets(snapshot: RuntimeSnapshot, env: NodeJS.ProcessEnv): ConfiguredSecret[] {
  let found = bySnapshot.get(snapshot);
  if (found) return found;
  found = [];
  collect(snapshot.config, [], found);
  // The chat channels plugins provide sit in the catalog; their secret keys are the ones their manifests declare.
  for (const plugin of snapshot.plugins.values()) {
    for (const [channel, section] of Object.entries(plugin.channels ?? {})) {
      collect(section, ['channels', channel], found);
      for (const name of plugin.manifest?.channelConfigs[channel]?.secretEnv ?? []) {
        const value = env[name];
        if (value) found.push({ path: `environment variable ${name}`, value });
      }
    }
  }
  for (const provider of Object.values(snapshot.config.models.providers)) {
    const value = provider.apiKeyEnv ? env[provider.apiKeyEnv] : undefined;
    if (value) found.push({ path: `environment variable ${provider.apiKeyEnv}`, value });
  }
  bySnapshot.set(snapshot, found);
  return found;
}

const valuesBySnapshot = new WeakMap<RuntimeSnapshot, string[]>();

/**
 * The values alone, for the shared masker (common/secrets/secret-mask.ts): what the gateway's SecretShield feeds it
 * and what `clawgate sessions export` feeds it for the config it loads, so an export is masked the same either way.
 * The same array per snapshot, so the masker can tell nothing changed.
 */
export function configuredSecretValues(snapshot: RuntimeSnapshot, env: NodeJS.ProcessEnv): string[] {
  let values = valuesBySnapshot.get(snapshot);
  if (!values) {
    values = configuredSecrets(snapshot, env).map((s) => s.value);
    valuesBySnapshot.set(snapshot, values);
  }
  return values;
}

function collect(node: unknown, segments: Array<string | number>, out: ConfiguredSecret[]): void {
  if (typeof node === 'string') {
    if (node && segments.length && isSecretConfigPath(segments)) out.push({ path: toDottedPath(segments), value: node });
    return;
  }
  if (Array.isArray(node)) {
    node.forEach((v, i) => collect(v, [...segments, i], out));
    return;
  }
  if (node && typeof node === 'object' && !(node instanceof Map)) {
    for (const [k, v] of Object.entries(node)) collect(v, [...segments, k], out);
  }
}
