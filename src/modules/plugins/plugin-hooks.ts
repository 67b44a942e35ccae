import { Logger } from '@nestjs/common';
import type { PluginHookEvents, PluginHookHandler, PluginHookName, PluginHookResult } from '../../plugin-sdk';
import type { GatewayMetrics } from '../metrics';
import type { RunHookDispatcher, RunHookOutcome } from '../runtime';

/** The hooks a plugin may register (docs/plugins.md#hooks). */
export const PLUGIN_HOOKS: readonly PluginHookName[] = Object.freeze([
  'message_received',
  'before_model_call',
  'before_tool_call',
  'after_run',
  'config_applied',
]);

/** How long one handler may take before the run goes on without it (docs/plugins.md#hooks). */
export const HOOK_BUDGET_MS = 2000;

interface Registered {
  plugin: string;
  handler: PluginHookHandler<PluginHookName>;
}

/** What a handler came to: its answer, or why it was skipped. */
type Settled = { answer: PluginHookResult } | { skipped: 'error' | 'timeout'; message: string };

/**
 * The plugins' hook handlers, attached to the runtime's `RunHooks` port. Every handler of a hook runs at once, each
 * under HOOK_BUDGET_MS: one that throws or overruns is skipped (logged, counted in
 * `clawgate_plugin_hook_failures_total`) and the run goes on; for `before_tool_call` the first handler, in the
 * order the plugins registered them, that answers `{ refuse }` refuses the call.
 */
export class PluginHookDispatcher implements RunHookDispatcher {
  private readonly logger = new Logger('plugins');
  private readonly handlers = new Map<PluginHookName, Registered[]>();

  constructor(
    private readonly metrics: GatewayMetrics,
    private readonly budgetMs = HOOK_BUDGET_MS,
  ) {}

  add(plugin: string, hook: PluginHookName, handler: PluginHookHandler<PluginHookName>): void {
    const list = this.handlers.get(hook) ?? [];
    this.handlers.set(hook, [...list, { plugin, handler }]);
  }

  /** Takes out every handler of a plugin (it is unloaded). */
  removePlugin(plugin: string): void {
    for (const [hook, list] of this.handlers) {
      const kept = list.filter((r) => r.plugin !== plugin);
      if (kept.length) this.handlers.set(hook, kept);
      else this.handlers.delete(hook);
    }
  }

  has(hook: PluginHookName): boolean {
    return this.handlers.has(hook);
  }

  async emit<K extends PluginHookName>(hook: K, event: PluginHookEvents[K]): Promise<RunHookOutcome> {
    const list = this.handlers.get(hook) ?? [];
    const settled = await Promise.all(list.map((r) => this.runOne(hook, r, event)));
    if (hook !== 'before_tool_call') return {};
    for (const [i, outcome] of settled.entries()) {
      const answer = 'answer' in outcome ? outcome.answer : undefined;
      if (answer && typeof answer === 'object' && typeof answer.refuse === 'string') {
        return { refusal: { plugin: list[i].plugin, reason: answer.refuse } };
      }
    }
    return {};
  }

  private async runOne(hook: PluginHookName, registered: Registered, event: unknown): Promise<Settled> {
    let timer: NodeJS.Timeout | undefined;
    const overrun = new Promise<Settled>((resolve) => {
      timer = setTimeout(() => resolve({ skipped: 'timeout', message: `no answer within ${this.budgetMs} ms` }), this.budgetMs);
    });
    const answered = (async (): Promise<Settled> => {
      try {
        return { answer: await registered.handler(event as never) };
      } catch (err) {
        return { skipped: 'error', message: (err as Error)?.message ?? String(err) };
      }
    })();
    const outcome = await Promise.race([answered, overrun]);
    clearTimeout(timer);
    if ('skipped' in outcome) {
      this.metrics.pluginHookFailure(registered.plugin, hook, outcome.skipped);
      this.logger.warn(
        { plugin: registered.plugin, hook, reason: outcome.skipped },
        `plugin ${registered.plugin}: ${hook} hook skipped (${outcome.skipped}): ${outcome.message}`,
      );
    }
    return outcome;
  }
}
