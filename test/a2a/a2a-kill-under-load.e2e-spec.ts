import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CliBuild, transpileCli } from '../fixtures/cli-runner';
import { GatewayProcess } from '../fixtures/gateway-process';
import { killUnderLoad } from '../support/a2a-kill-under-load';

describe('A2A: kill -9 under a load of blocking SendMessage calls (e2e, separate process)', () => {
  let build: CliBuild;
  let dir: string;
  let gateway: GatewayProcess | undefined;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-a2a-kill-'));
    build = await transpileCli();
  }, 60_000);
  afterAll(async () => {
    await gateway?.kill9();
    await build?.remove();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('after the restart, finds every acknowledged task (same state and artifact) and both transcript lines of its session', async () => {
    await killUnderLoad({ build, dir, concurrency: 4, gatewayStarted: (g) => void (gateway = g) });
  }, 60_000);
});
