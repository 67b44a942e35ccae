import { REDACTED, redactSecretFields } from '../../common/secrets/redact-document';
import type { PluginManifest } from '../config';

/**
 * A plugin's config as the admin API shows it: the keys its manifest names as secrets, and every key the gateway's
 * one rule takes for a credential (a `token`, an `apiKey`, …), replaced by `[redacted]`.
 */
export function maskedPluginConfig(id: string, config: Record<string, unknown>, manifest?: PluginManifest): Record<string, unknown> {
  const prefix = ['plugins', 'entries', id, 'config'];
  const masked = redactSecretFields(config, prefix) as Record<string, unknown>;
  for (const dotted of manifest?.secrets ?? []) redactAt(masked, dotted.split('.'));
  return masked;
}

function redactAt(node: unknown, keys: string[]): void {
  if (!node || typeof node !== 'object') return;
  const [key, ...rest] = keys;
  const record = node as Record<string, unknown>;
  if (key === '*') {
    for (const k of Object.keys(record)) {
      if (rest.length) redactAt(record[k], rest);
      else record[k] = REDACTED;
    }
    return;
  }
  if (!Object.prototype.hasOwnProperty.call(record, key)) return;
  if (rest.length) redactAt(record[key], rest);
  else if (record[key] !== undefined && record[key] !== null) record[key] = REDACTED;
}
