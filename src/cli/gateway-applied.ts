import { runningGatewayOf, type StateDirHolder } from '../common/fs/state-dir-lock';
import { appliedRevisionSince, configHistoryHighWater } from '../modules/config-plan';

/** How long a CLI edit waits for the gateway running on its state dir to apply it (it normally takes well under 1 s). */
const APPLY_WAIT_MS = 5000;

/**
 * A CLI edit and the gateway that runs on the same state dir. The revision the CLI computes is the config as
 * this shell resolves it; the gateway may resolve `${VAR}`s differently (`npm start` fills in the demo tokens),
 * and only its revision is the one its status, history and rollback know. So when a gateway runs there, the CLI
 * waits for the gateway's history to record the edit and names that revision.
 */
export class GatewayWatch {
  private constructor(
    private readonly stateDir: string,
    private readonly gateway: StateDirHolder | undefined,
    private readonly since: number,
  ) {}

  /** Taken before the write: which gateway runs on `stateDir` and how far its history goes. */
  static async before(stateDir: string, historyInSqlite: boolean): Promise<GatewayWatch> {
    const gateway = historyInSqlite ? await runningGatewayOf(stateDir) : undefined;
    return new GatewayWatch(stateDir, gateway, gateway ? configHistoryHighWater(stateDir) : 0);
  }

  /** After the write of content `contentHash`: one line saying what the running gateway made of it, if one runs. */
  async report(contentHash: string): Promise<void> {
    if (!this.gateway) return;
    const who = `the gateway running on this state dir (pid ${this.gateway.pid})`;
    const deadline = Date.now() + APPLY_WAIT_MS;
    for (;;) {
      const revision = appliedRevisionSince(this.stateDir, contentHash, this.since);
      if (revision) {
        process.stdout.write(`${who} applied it as revision ${revision}\n`);
        return;
      }
      if (Date.now() >= deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    process.stderr.write(
      `warning: ${who} has not applied it within ${APPLY_WAIT_MS / 1000} s; \`clawgate gateway status\` shows its revision and last rejected change\n`,
    );
  }
}
