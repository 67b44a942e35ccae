import { Injectable } from '@nestjs/common';
import type { PluginHookEvents, PluginHookName } from '../../plugin-sdk/plugin-api';

/**
 * Who answers the run's hooks (the plugins module): it runs every handler of a hook under its time budget and
 * never throws. `refusal` is the reason of the first `before_tool_call` handler that refused, if any.
 */
export interface RunHookDispatcher {
  /** True when a handler of this hook is registered: the run skips building the event otherwise. */
  has(hook: PluginHookName): boolean;
  emit<K extends PluginHookName>(hook: K, event: PluginHookEvents[K]): Promise<RunHookOutcome>;
}

export interface RunHookOutcome {
  refusal?: { plugin: string; reason: string };
}

const NOTHING: RunHookOutcome = {};

/**
 * The port through which the run's life reaches plugins' hooks (docs/plugins.md#hooks). The runtime owns it and
 * calls it at each point of a run; the plugins module, a layer above, attaches the dispatcher. With nothing attached
 * (or no handler for a hook) a call costs one check and no await: a gateway without plugins runs as before.
 */
@Injectable()
export class RunHooks {
  private dispatcher?: RunHookDispatcher;

  attach(dispatcher: RunHookDispatcher): void {
    this.dispatcher = dispatcher;
  }

  has(hook: PluginHookName): boolean {
    return this.dispatcher?.has(hook) ?? false;
  }

  /** Runs the hook's handlers; resolves once each has answered or run out of its budget. Never rejects. */
  emit<K extends PluginHookName>(hook: K, event: PluginHookEvents[K]): Promise<RunHookOutcome> {
    return this.dispatcher?.has(hook) ? this.dispatcher.emit(hook, event) : Promise.resolve(NOTHING);
  }
}
