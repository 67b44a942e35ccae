import { isPlainObject } from '../../../common/is-record';
import { ConfigIssue, toDottedPath } from '../pipeline/config-issue';

/**
 * Spellings that OpenClaw retired and whose meaning is unambiguous, read as their current form with a warning
 * that names the new spelling (the rewrite `openclaw doctor --fix` and `clawgate doctor --fix` make). Runs before
 * the OpenClaw key data is applied, so what comes out is checked like any current file. Only what means the same
 * is rewritten; a value that would loosen what the file asks (`trustedProxies: ["*"]` where proxies name the
 * user) stays for validation to refuse.
 */
export interface RetiredSpellingsResult {
  /** The document with retired spellings replaced; the input is not changed. */
  document: unknown;
  warnings: ConfigIssue[];
  errors: ConfigIssue[];
}

/** The document with each retired spelling read as its current form, a warning for each. */
export function readRetiredOpenClawSpellings(doc: unknown): RetiredSpellingsResult {
  const warnings: ConfigIssue[] = [];
  const errors: ConfigIssue[] = [];
  if (!isPlainObject(doc)) return { document: doc, warnings, errors };
  let out: Record<string, unknown> = doc;
  const gateway = gatewayWithCurrentSpellings(doc.gateway, warnings, errors);
  if (gateway !== doc.gateway) out = { ...out, gateway };
  const bindings = bindingsWithCurrentSpellings(doc.bindings, warnings);
  if (bindings !== doc.bindings) out = { ...out, bindings };
  return { document: out, warnings, errors };
}

/** OpenClaw's reload modes before `hybrid`: `doctor --fix` maps both to it, and so does clawgate. */
export const RETIRED_RELOAD_MODES: readonly string[] = ['hot', 'restart'];

function gatewayWithCurrentSpellings(gateway: unknown, warnings: ConfigIssue[], errors: ConfigIssue[]): unknown {
  if (!isPlainObject(gateway)) return gateway;
  let out = gateway;
  const reload = gateway.reload;
  if (isPlainObject(reload) && typeof reload.mode === 'string' && RETIRED_RELOAD_MODES.includes(reload.mode)) {
    warnings.push({
      path: 'gateway.reload.mode',
      message:
        `"${reload.mode}" was retired by OpenClaw and is read as "hybrid" (edits that are safe apply live; the keys that need a ` +
        'restart are listed in /admin/config/status until you restart); `clawgate doctor --fix` rewrites it',
    });
    out = { ...out, reload: { ...reload, mode: 'hybrid' } };
  }
  const proxies = gateway.trustedProxies;
  if (Array.isArray(proxies) && proxies.includes('*')) {
    if (proxiesNameTheUser(gateway)) {
      errors.push({
        path: 'gateway.trustedProxies',
        message:
          '"*" would believe the user header of trusted-proxy auth from any address, so anyone could sign in as anyone; ' +
          'list the addresses of your proxies (e.g. 10.0.0.0/8)',
      });
    } else {
      warnings.push({
        path: 'gateway.trustedProxies',
        message:
          '"*" would let any client forge X-Forwarded-For (its address in logs, rate limits and the loopback check), ' +
          'so it is not used: forwarded headers are believed only from the other entries; list your proxies instead',
      });
    }
    out = { ...out, trustedProxies: proxies.filter((entry) => entry !== '*') };
  }
  return out;
}

/** Whether a proxy's headers name the admin user: OpenClaw's trusted-proxy auth mode, or clawgate's own SSO. */
function proxiesNameTheUser(gateway: Record<string, unknown>): boolean {
  const auth = gateway.auth;
  const admin = gateway.admin;
  return (isPlainObject(auth) && auth.mode === 'trusted-proxy') || (isPlainObject(admin) && isPlainObject(admin.sso));
}

/** `bindings[].match.provider`, OpenClaw's old name of `match.channel`, when the binding has no `channel`. */
function bindingsWithCurrentSpellings(bindings: unknown, warnings: ConfigIssue[]): unknown {
  if (!Array.isArray(bindings)) return bindings;
  let changed = false;
  const out = bindings.map((binding: unknown, i) => {
    if (!isPlainObject(binding) || !isPlainObject(binding.match)) return binding;
    const { provider, ...match } = binding.match;
    if (provider === undefined || 'channel' in match) return binding; // both: the key data's "renamed" error names it
    changed = true;
    warnings.push({
      path: toDottedPath(['bindings', i, 'match', 'provider']),
      message: 'the old name of bindings[].match.channel, read as channel; `clawgate doctor --fix` renames it',
    });
    return { ...binding, match: { channel: provider, ...match } };
  });
  return changed ? out : bindings;
}
