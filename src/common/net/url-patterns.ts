import { isIP } from 'node:net';

/**
 * URL allowlists an operator writes, such as the push URLs a peer may register (`channels.a2a.peers.<name>.pushUrls`,
 * docs/a2a-push.md#allowed-urls): each pattern is an http(s) URL in which `*` stands for any run of characters —
 * within host-name characters in the host (`https://*.example.com/…` never matches `example.com.evil.io/…`), anything in the path and query.
 * A host a wildcard matches is always a DNS name: an IP address or `localhost` is reachable only when a pattern names
 * it literally, so `https://*` can never be bent into `http://169.254.169.254/`. What a name resolves to is checked
 * again when the push is sent (the outbound guard refuses private addresses a name resolves to).
 */

interface ParsedPattern {
  scheme: string;
  host: RegExp;
  hostIsLiteral: boolean;
  port: string;
  rest: RegExp;
}

const PATTERN_SHAPE = /^(https?):\/\/([^/?#]+)(.*)$/i;

/** Why `pattern` is not a valid URL pattern, as words that follow the pattern (`"…" has no host`); undefined when it is. */
export function urlPatternProblem(pattern: unknown): string | undefined {
  if (typeof pattern !== 'string' || !pattern) return 'is not a non-empty string';
  const m = PATTERN_SHAPE.exec(pattern);
  if (!m) return 'must start with http:// or https:// followed by a host';
  const authority = m[2];
  if (authority.includes('@')) return 'must not carry credentials';
  if (m[3].includes('#')) return 'must not have a fragment';
  const { host, port } = splitAuthority(authority);
  if (!host) return 'has no host';
  if (port !== '' && port !== '*' && !/^\d{1,5}$/.test(port)) return 'has an invalid port';
  if (host.replace(/\*/g, '') === '') return 'must name a domain as its host, not only a wildcard (e.g. https://*.example.com/*)';
  return undefined;
}

function splitAuthority(authority: string): { host: string; port: string } {
  if (authority.startsWith('[')) {
    const end = authority.indexOf(']');
    return { host: authority.slice(0, end + 1).toLowerCase(), port: authority.slice(end + 2) };
  }
  const colon = authority.lastIndexOf(':');
  return colon < 0
    ? { host: authority.toLowerCase(), port: '' }
    : { host: authority.slice(0, colon).toLowerCase(), port: authority.slice(colon + 1) };
}

function glob(text: string, star: string): RegExp {
  return new RegExp(
    `^${text
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join(star)}$`,
  );
}

function parse(pattern: string): ParsedPattern | undefined {
  if (urlPatternProblem(pattern)) return undefined;
  const m = PATTERN_SHAPE.exec(pattern) as RegExpExecArray;
  const { host, port } = splitAuthority(m[2]);
  return {
    scheme: m[1].toLowerCase(),
    host: glob(host, '[a-z0-9-]+(?:\\.[a-z0-9-]+)*'),
    hostIsLiteral: !host.includes('*'),
    port,
    rest: glob(m[3] || '/', '.*'),
  };
}

function isLiteralOnlyHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return isIP(bare) !== 0 || hostname === 'localhost' || hostname.endsWith('.localhost');
}

/**
 * Whether `url` (one a caller chose) is allowed by one of `patterns`. Also refuses what no pattern can allow: other
 * schemes, credentials in the URL, a fragment.
 */
export function urlAllowedByPatterns(url: string, patterns: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.username || parsed.password || parsed.hash) return false;
  const scheme = parsed.protocol.slice(0, -1);
  const port = parsed.port;
  const rest = `${parsed.pathname}${parsed.search}`;
  const literalOnly = isLiteralOnlyHost(parsed.hostname);
  return patterns.some((text) => {
    const p = parse(text);
    if (!p || p.scheme !== scheme) return false;
    if (literalOnly && !p.hostIsLiteral) return false;
    if (!p.host.test(parsed.hostname)) return false;
    if (p.port !== '*' && p.port !== port) return false;
    return p.rest.test(rest);
  });
}
