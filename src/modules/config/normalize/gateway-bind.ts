import * as fs from 'node:fs';
import { isIP, isIPv4 } from 'node:net';

/**
 * OpenClaw's bind modes (`gateway.bind`), beside the IP addresses clawgate always took. The mode is resolved to
 * the one address the gateway listens on; everything after normalization sees only that address.
 */
export const BIND_MODES = ['loopback', 'lan', 'auto', 'custom', 'tailnet'] as const;
export type BindMode = (typeof BIND_MODES)[number];

export function isBindMode(value: string): value is BindMode {
  return (BIND_MODES as readonly string[]).includes(value);
}

/** What `gateway.bind` may hold: a mode or an IP address. */
export function isBindValue(value: unknown): boolean {
  return typeof value === 'string' && (isBindMode(value) || isIP(value) !== 0);
}

export interface ResolvedBind {
  /** The address to listen on. */
  host: string;
  /** Set when the mode could not be honoured as written (tailnet): what was done instead. */
  fallback?: string;
}

/**
 * The address for a bind value. `auto` is OpenClaw's container default: every interface inside a container
 * (the published port arrives from the container network), loopback elsewhere. `tailnet` would need the
 * Tailscale address; clawgate does not ask Tailscale, so it listens on loopback and says so.
 */
export function resolveBindHost(bind: string, customBindHost: string | undefined, inContainer: boolean): ResolvedBind {
  switch (bind) {
    case 'loopback':
      return { host: '127.0.0.1' };
    case 'lan':
      return { host: '0.0.0.0' };
    case 'auto':
      return { host: inContainer ? '0.0.0.0' : '127.0.0.1' };
    case 'custom':
      return { host: customBindHost ?? '127.0.0.1' };
    case 'tailnet':
      return { host: '127.0.0.1', fallback: 'clawgate does not look up the Tailscale address; it listens on loopback (127.0.0.1)' };
    default:
      return { host: bind };
  }
}

/** Only this host can connect: 127.0.0.0/8, ::1, and the IPv4-mapped loopback addresses. */
export function isLoopbackHost(host: string): boolean {
  const v4 = host.startsWith('::ffff:') ? host.slice(7) : host;
  return (isIPv4(v4) && v4.startsWith('127.')) || host === '::1';
}

/**
 * Whether this process runs in a container, as OpenClaw decides its `auto` bind: Docker's `/.dockerenv`,
 * Podman's `/run/.containerenv`, the `container` variable systemd-nspawn and Podman set, or a Kubernetes pod.
 */
export function runsInContainer(env: NodeJS.ProcessEnv): boolean {
  if (env.container || env.KUBERNETES_SERVICE_HOST) return true;
  return fs.existsSync('/.dockerenv') || fs.existsSync('/run/.containerenv');
}
