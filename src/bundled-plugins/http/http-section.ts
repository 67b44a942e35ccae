/**
 * `channels.http` as the channel reads it: the section the core validated and normalized (docs/configuration.md), handed
 * to the plugin's channel context. `usable` is false for an account whose `${VAR}` token is unset: it never
 * authenticates and nothing is sent for it.
 */
export interface HttpAccount {
  id: string;
  token?: string;
  webhookUrl?: string;
  usable: boolean;
}

export interface HttpSection {
  enabled: boolean;
  accounts: Record<string, HttpAccount>;
}

/** The channel's id: its `channels.<id>` section, its bindings' `match.channel`, its sessions' keys. */
export const HTTP_CHANNEL_ID = 'http';

/** The section, or undefined when what was handed over is not one (the channel then answers as when it is off). */
export function httpSectionOf(value: unknown): HttpSection | undefined {
  const section = value as Partial<HttpSection> | undefined;
  if (!section || typeof section !== 'object' || typeof section.accounts !== 'object' || section.accounts === null) return undefined;
  return { enabled: section.enabled === true, accounts: section.accounts };
}
