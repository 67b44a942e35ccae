import type { NormalizeContext } from './normalize-context';

/**
 * A binding's channel nothing in this gateway serves: a warning, since the binding is kept (the file may be shared
 * with a gateway that serves it). When a plugin declares the channel but does not run, the warning says why and so
 * what to configure, instead of "no adapter".
 */
export function warnUnservedChannel(
  ctx: NormalizeContext,
  path: string,
  channel: string,
  provider: { plugin: string; off?: string } | undefined,
): void {
  const quoted = ctx.quoter.quote(path, channel);
  const message = provider
    ? `channel ${quoted} is provided by plugin ${provider.plugin}, which does not run (${provider.off}); the binding is kept but receives nothing until it does`
    : `no adapter for channel ${quoted} in this gateway; the binding is kept but receives nothing`;
  ctx.warnings.push({ path, message });
}
