import { suggestClosest } from '../../../common/text/did-you-mean';
import type { ModelProviderSettings } from '../config.types';
import type { AgentModelEntryConfig } from '../schema/agents.schema';
import type { ModelSettingConfig } from '../schema/model-setting';
import { checkModelRef } from './model-providers';
import type { NormalizeContext } from './normalize-context';

/** A `model` setting resolved: `provider/model` references, aliases replaced. `fallbacks` unset: inherited. */
export interface ModelChain {
  primary: string;
  fallbacks?: string[];
}

/** agents.defaults.models: its aliases (alias → `provider/model`) and its keys (OpenClaw's allowlist). */
export interface ModelCatalog {
  aliases: Record<string, string>;
  allowed: string[];
}

export function normalizeModelCatalog(ctx: NormalizeContext, models: Map<string, AgentModelEntryConfig> | undefined): ModelCatalog {
  const aliases: Record<string, string> = {};
  for (const [ref, entry] of models ?? []) {
    if (entry.alias === undefined) continue;
    const at = `agents.defaults.models.${ref}.alias`;
    if (Object.hasOwn(aliases, entry.alias)) {
      ctx.errors.push({ path: at, message: `alias ${ctx.quoter.quote(at, entry.alias)} is already the alias of ${aliases[entry.alias]}` });
      continue;
    }
    aliases[entry.alias] = ref;
  }
  return { aliases, allowed: [...(models?.keys() ?? [])] };
}

/**
 * Resolves model settings where they are written: an alias becomes its `provider/model` (OpenClaw tries an alias
 * first for a name without a provider), each reference is checked against the providers.
 */
export class ModelRefResolver {
  constructor(
    private readonly ctx: NormalizeContext,
    private readonly providers: Record<string, ModelProviderSettings>,
    private readonly catalog: ModelCatalog,
  ) {}

  /** `setting` written at `at` (`agents.list[0].model`). Fallbacks are deduplicated, the primary left out of them. */
  chain(setting: ModelSettingConfig, at: string): ModelChain {
    if (typeof setting === 'string') return { primary: this.ref(setting, at) };
    const primary = this.ref(setting.primary, `${at}.primary`);
    if (!setting.fallbacks) return { primary };
    const fallbacks = setting.fallbacks.map((f, i) => this.ref(f, `${at}.fallbacks[${i}]`));
    return { primary, fallbacks: [...new Set(fallbacks)].filter((f) => f !== primary) };
  }

  private ref(written: string, at: string): string {
    if (Object.hasOwn(this.catalog.aliases, written)) return this.catalog.aliases[written];
    if (!written.includes('/')) {
      const hint = suggestClosest(written, Object.keys(this.catalog.aliases));
      this.ctx.errors.push({
        path: at,
        message: `${this.ctx.quoter.quote(at, written)} names no provider and is no alias${hint ? ` (did you mean "${hint}"?)` : ''}: write "provider/model", or give it as alias in agents.defaults.models`,
      });
      return written;
    }
    checkModelRef(this.ctx, this.providers, written, at);
    return written;
  }
}
