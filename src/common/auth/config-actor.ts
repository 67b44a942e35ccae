import { AsyncLocalStorage } from 'node:async_hooks';

/** How a config revision came to be applied, as the config history records it. */
export type ConfigChangeSource = 'file' | 'api' | 'cli' | 'rollback';

/** Who is changing the config in the current request, and through what. */
export interface ConfigActor {
  /** The admin identity (`token:<name>`, `sso:<user>`, `loopback`). */
  subject: string;
  source: 'api' | 'rollback';
}

const actors = new AsyncLocalStorage<ConfigActor>();

/**
 * Runs `fn` as `actor`: a config write made anywhere below it (the agents endpoints, PATCH /admin/config, a
 * rollback) is recorded with that subject and source. Carried by the async context because the writer and
 * the history sit below the admin module and never see the request.
 */
export function runAsConfigActor<T>(actor: ConfigActor, fn: () => T): T {
  return actors.run(actor, fn);
}

/** The actor of the request being handled, or undefined (a file edit picked up by the watcher, a boot). */
export function currentConfigActor(): ConfigActor | undefined {
  return actors.getStore();
}
