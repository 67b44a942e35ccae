import * as path from 'node:path';
import { locateConfig } from './gateway-options';

describe('locateConfig precedence', () => {
  const home = '/home/op';
  const cwd = '/srv/app';

  it('prefers --config over everything', () => {
    const r = locateConfig({
      cliConfig: 'conf/a.json5',
      env: { OPENCLAW_CONFIG_PATH: '/etc/b.json', OPENCLAW_STATE_DIR: '/var/s' },
      homeDir: home,
      cwd,
    });
    expect(r).toEqual({ configPath: path.join(cwd, 'conf/a.json5'), stateDir: '/var/s', configSource: 'cli' });
  });

  it('uses OPENCLAW_CONFIG_PATH next', () => {
    const r = locateConfig({ env: { OPENCLAW_CONFIG_PATH: '/etc/b.json' }, homeDir: home, cwd });
    expect(r).toEqual({ configPath: '/etc/b.json', stateDir: '/home/op/.clawgate', configSource: 'env' });
  });

  it('then the state dir from the environment', () => {
    const r = locateConfig({ env: { OPENCLAW_STATE_DIR: '~/state' }, homeDir: home, cwd });
    expect(r).toEqual({ configPath: '/home/op/state/openclaw.json', stateDir: '/home/op/state', configSource: 'state-dir' });
  });

  it("falls back to ~/.openclaw/openclaw.json, keeping its state in ~/.clawgate, never in OpenClaw's ~/.openclaw", () => {
    expect(locateConfig({ env: {}, homeDir: home, cwd })).toEqual({
      configPath: '/home/op/.openclaw/openclaw.json',
      stateDir: '/home/op/.clawgate',
      configSource: 'home',
    });
  });

  it("keeps the state out of OpenClaw's ~/.openclaw when --config names the file there", () => {
    const r = locateConfig({ cliConfig: '~/.openclaw/openclaw.json', env: {}, homeDir: home, cwd });
    expect(r).toEqual({ configPath: '/home/op/.openclaw/openclaw.json', stateDir: '/home/op/.clawgate', configSource: 'cli' });
  });

  it('a --state-dir alone also locates the config inside it', () => {
    const r = locateConfig({ cliStateDir: 'data', env: {}, homeDir: home, cwd });
    expect(r).toEqual({ configPath: '/srv/app/data/openclaw.json', stateDir: '/srv/app/data', configSource: 'state-dir' });
  });

  it('--state-dir wins over OPENCLAW_STATE_DIR but does not move an env config path', () => {
    const r = locateConfig({
      cliStateDir: 'data',
      env: { OPENCLAW_STATE_DIR: '/var/s', OPENCLAW_CONFIG_PATH: '/etc/c.json' },
      homeDir: home,
      cwd,
    });
    expect(r).toEqual({ configPath: '/etc/c.json', stateDir: '/srv/app/data', configSource: 'env' });
  });
});
