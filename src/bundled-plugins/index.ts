import * as path from 'node:path';
import type { PluginDefinition } from '../plugin-sdk';
import a2aManifest from './a2a/clawgate.plugin.json';
import discordManifest from './discord/clawgate.plugin.json';
import httpManifest from './http/clawgate.plugin.json';
import openaiManifest from './openai/clawgate.plugin.json';
import slackManifest from './slack/clawgate.plugin.json';
import telegramManifest from './telegram/clawgate.plugin.json';

/**
 * The plugins that ship with clawgate (docs/plugins.md#bundled-plugins): each is a folder `src/bundled-plugins/<id>/`
 * with its `clawgate.plugin.json` and an `index.ts` whose default export (or `module.exports`) is the definition.
 * Discovery reads and checks the manifest like any other plugin's (after `plugins.load.paths` and the state dir's
 * `extensions/`); the trust checks do not apply, since the code is part of the gateway's own. The code is loaded only
 * when the plugin is enabled (a bundled channel plugin declares `activation: "channel"`, so only once its channel
 * is configured).
 *
 * Adding one: its folder, then its manifest imported at the top of this file (the import is what makes the build emit
 * the JSON beside the compiled code, so `dist/bundled-plugins/<id>/` holds both) and one line in the list:
 *
 *     import telegramManifest from './telegram/clawgate.plugin.json';
 *     { id: 'telegram', root: path.join(__dirname, 'telegram'), manifest: telegramManifest,
 *       load: () => import('./telegram').then(definitionOf) },
 */
export interface BundledPlugin {
  id: string;
  /** Its folder: the manifest is read from here. */
  root: string;
  /** Its manifest, as imported (so the build copies the file). */
  manifest: unknown;
  load(): Promise<PluginDefinition>;
}

export const BUNDLED_PLUGINS: readonly BundledPlugin[] = [
  {
    id: 'telegram',
    root: path.join(__dirname, 'telegram'),
    manifest: telegramManifest,
    load: () => import('./telegram').then(definitionOf),
  },
  {
    id: 'discord',
    root: path.join(__dirname, 'discord'),
    manifest: discordManifest,
    load: () => import('./discord').then(definitionOf),
  },
  {
    id: 'slack',
    root: path.join(__dirname, 'slack'),
    manifest: slackManifest,
    load: () => import('./slack').then(definitionOf),
  },
  {
    id: 'http',
    root: path.join(__dirname, 'http'),
    manifest: httpManifest,
    load: () => import('./http').then(definitionOf),
  },
  {
    id: 'openai-endpoint',
    root: path.join(__dirname, 'openai'),
    manifest: openaiManifest,
    load: () => import('./openai').then(definitionOf),
  },
  {
    id: 'a2a',
    root: path.join(__dirname, 'a2a'),
    manifest: a2aManifest,
    load: () => import('./a2a').then(definitionOf),
  },
];

/** The roots discovery reads (in this order, after the load paths and `extensions/`). */
export function bundledPluginRoots(): string[] {
  return BUNDLED_PLUGINS.map((p) => p.root);
}

/** The definition of the bundled plugin with this id, loaded on first use; undefined when none has it. */
export function bundledPluginDefinition(id: string): Promise<PluginDefinition> | undefined {
  return BUNDLED_PLUGINS.find((p) => p.id === id)?.load();
}

/** A module's definition: its default export (an ES module compiled to CommonJS), else the module itself. */
export function definitionOf(module: unknown): PluginDefinition {
  const m = module as { default?: PluginDefinition } & PluginDefinition;
  return m.default && typeof m.default.register === 'function' ? m.default : m;
}

/** The folder of the bundled plugin `id` (where the build puts its manifest and code). */
export function bundledPluginRoot(id: string): string {
  return path.join(__dirname, id);
}
