import type { CONFIG_DEFAULTS } from '../config-defaults';
import type { AgentMapEntryConfig, MemoryCollectionConfig } from './agents.schema';
import type { A2aPeerConfig } from './channels.schema';
import type { McpServerConfig } from './mcp.schema';
import type { ModelProviderConfig } from './models.schema';
import type { OpenClawConfig } from './openclaw.schema';

/*
 * The compile-time check that CONFIG_DEFAULTS fits the schema classes: a default at a key the classes do not
 * have, or of a type the key does not take, fails `tsc` here. It lives beside the schema rather than in
 * config-defaults.ts because the schema classes import the defaults for their `@Default`s; the defaults
 * importing the classes back, even for types, would close an import circle. Nothing imports this file.
 */

/**
 * What a defaults object may hold for a schema class: any of its keys, nested; a list of entries only as `[]`
 * and a map (a `Map` on the schema classes) only as `{}`, because an absent collection of entries is always
 * empty. A list of strings is a setting (`channels.a2a.files.mediaTypes`) and may have any default.
 */
type DefaultsFor<T> = { [K in keyof T]?: DefaultValue<NonNullable<T[K]>> };
type DefaultValue<V> =
  V extends Map<string, unknown>
    ? Readonly<Record<string, never>>
    : V extends readonly string[]
      ? readonly string[]
      : V extends readonly unknown[]
        ? readonly []
        : V extends object
          ? DefaultsFor<V>
          : V;

interface ConfigDefaultsShape extends DefaultsFor<Omit<OpenClawConfig, '$schema'>> {
  /** Defaults of every element of a list or map of entries, by the kind of entry. */
  each: {
    /** `agents.list[]` and `agents.entries.<id>`, beyond what they inherit from `agents.defaults`. */
    agent: DefaultsFor<Pick<AgentMapEntryConfig, 'default' | 'identity'>>;
    /** `memory.qmd.paths[]` and every `memorySearch.qmd.extraCollections[]`. */
    memoryCollection: DefaultsFor<Pick<MemoryCollectionConfig, 'pattern'>>;
    /** `models.providers.<name>`, built in or not. */
    modelProvider: DefaultsFor<ModelProviderConfig>;
    /** `channels.a2a.peers.<name>`. */
    a2aPeer: DefaultsFor<Pick<A2aPeerConfig, 'protocolVersion' | 'pushUrls' | 'trustBudget'>>;
    /** `mcp.servers.<name>`. */
    mcpServer: DefaultsFor<McpServerConfig>;
  };
}

/**
 * `D` with every key that `S` does not have, at any depth, typed `never`. The defaults are a finished object
 * here, not a literal, so TypeScript's check for unknown keys does not apply; this puts it back: a misspelt
 * key cannot be given a value of type `never`.
 */
type UnknownKeysAsNever<D, S> = D extends readonly unknown[]
  ? D
  : D extends object
    ? { [K in keyof D]: K extends keyof S ? UnknownKeysAsNever<D[K], NonNullable<S[K]>> : never }
    : D;

/** `T`, accepted only when it is assignable to `Shape`. */
type Fits<T extends Shape, Shape> = T;

/** CONFIG_DEFAULTS, accepted by the compiler only when every key is the schema's and every value of its type. */
export type CheckedConfigDefaults = Fits<
  typeof CONFIG_DEFAULTS,
  ConfigDefaultsShape & UnknownKeysAsNever<typeof CONFIG_DEFAULTS, ConfigDefaultsShape>
>;
