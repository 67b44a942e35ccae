import { ConfigStore } from '../../src/modules/config/config.store';
import type { RuntimeSnapshot } from '../../src/modules/config/config.types';

type AppliedListener = (prev: RuntimeSnapshot, next: RuntimeSnapshot) => void;

/**
 * The real ConfigStore, serving snapshots a test hands it instead of reading files: services under test get
 * the class they get in the app, and `apply` swaps the snapshot the way a successful reload does.
 */
export class ServingConfigStore extends ConfigStore {
  private served: RuntimeSnapshot;
  private readonly appliedListeners = new Set<AppliedListener>();

  constructor(snapshot: RuntimeSnapshot) {
    super({ configPath: snapshot.configPath, stateDir: snapshot.stateDir, env: {} });
    this.served = snapshot;
  }

  override isLoaded(): boolean {
    return true;
  }

  override current(): RuntimeSnapshot {
    return this.served;
  }

  override onApplied(listener: AppliedListener): () => void {
    this.appliedListeners.add(listener);
    return () => this.appliedListeners.delete(listener);
  }

  /** Serves `next` from now on and tells the onApplied listeners, as a reload that changed the config does. */
  apply(next: RuntimeSnapshot): void {
    const prev = this.served;
    this.served = next;
    for (const listener of [...this.appliedListeners]) listener(prev, next);
  }
}
