import type { ConfigStore } from '../../config';
import { IDLE_TASK_EXPIRY_MS, TERMINAL_TASK_RETENTION_MS } from '../protocol/limits-and-messages';
import type { RetentionPolicy } from './task-store.port';

/**
 * The task store's retention: fixed ages (limits-and-messages.ts) and the per-peer cap `channels.a2a.keptTasksPerPeer`,
 * read from the current config at each write, so a reload applies to the next write without reopening the
 * store. Lowering it trims a peer the next time one of its tasks finishes.
 */
export function configuredRetention(config: ConfigStore): RetentionPolicy {
  return {
    terminalRetentionMs: TERMINAL_TASK_RETENTION_MS,
    idleExpiryMs: IDLE_TASK_EXPIRY_MS,
    get maxTerminalPerPeer(): number {
      // Before the config is loaded nothing is trimmed (a cap would be a guess); the next write applies the real one.
      return config.isLoaded() ? config.current().config.channels.a2a.keptTasksPerPeer : Number.POSITIVE_INFINITY;
    },
  };
}
