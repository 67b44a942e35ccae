import * as path from 'node:path';
import { QUOTE_LITERALLY } from '../pipeline/config-value-quoter';
import { defaultHomeDir, isInside, NormalizeContext, resolveUserPath } from './normalize-context';

const ctx: NormalizeContext = {
  configPath: path.resolve('/etc/clawgate/openclaw.json'),
  stateDir: path.resolve('/var/lib/clawgate'),
  homeDir: path.resolve('/home/ada'),
  env: {},
  unusableSecretPaths: new Set(),
  quoter: QUOTE_LITERALLY,
  errors: [],
  warnings: [],
};

describe('resolveUserPath', () => {
  it('expands ~ and ~/ to the home dir', () => {
    expect(resolveUserPath(ctx, '~')).toBe(path.resolve('/home/ada'));
    expect(resolveUserPath(ctx, '~/.openclaw/workspace-main')).toBe(path.resolve('/home/ada/.openclaw/workspace-main'));
    expect(resolveUserPath(ctx, '  ~/x  ')).toBe(path.resolve('/home/ada/x'));
  });

  it('resolves relative paths against the config file directory, or the given base', () => {
    expect(resolveUserPath(ctx, 'workspaces/a')).toBe(path.resolve('/etc/clawgate/workspaces/a'));
    expect(resolveUserPath(ctx, 'notes', path.resolve('/ws/main'))).toBe(path.resolve('/ws/main/notes'));
    expect(resolveUserPath(ctx, '/abs/path', path.resolve('/ws/main'))).toBe(path.resolve('/abs/path'));
  });
});

describe('isInside', () => {
  it('is true for the directory itself and anything below it', () => {
    expect(isInside('/ws/main', '/ws/main')).toBe(true);
    expect(isInside('/ws/main', '/ws/main/notes/a')).toBe(true);
  });

  it('is false for siblings, parents and look-alike prefixes', () => {
    expect(isInside('/ws/main', '/ws/main-2')).toBe(false);
    expect(isInside('/ws/main', '/ws')).toBe(false);
    expect(isInside('/ws/main', '/ws/family/sessions')).toBe(false);
  });
});

describe('defaultHomeDir', () => {
  it('prefers HOME from the given environment', () => {
    expect(defaultHomeDir({ HOME: '/custom/home' })).toBe('/custom/home');
    expect(typeof defaultHomeDir({})).toBe('string');
  });
});
