import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { tempSessionEnv, TempSessionEnv } from '../../../test/support/temp-session-env';

/** What a restarted process sees after a writer died at the worst moment. */
describe('FileSessionStore crash safety', () => {
  let env: TempSessionEnv;
  let warn: jest.SpyInstance;
  let error: jest.SpyInstance;
  beforeEach(async () => {
    env = await tempSessionEnv(['main']);
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await env.cleanup();
  });

  const indexPath = () => path.join(env.sessionsDir('main'), 'sessions.json');

  it('a writer killed between temp write and rename leaves the previous index intact (stray temp is cleaned up)', async () => {
    const first = env.newStore();
    const kept = await first.getOrCreate('agent:main:kept', { label: 'keep-me' });
    const before = await fs.readFile(indexPath(), 'utf8');
    // The dead writer's temp file: half of a newer index, named like writeFileAtomic's temps, from a pid that is gone.
    const stray = path.join(env.sessionsDir('main'), '.sessions.json.99999999.a1b2c3d4e5f6.tmp');
    await fs.writeFile(stray, before.slice(0, Math.floor(before.length / 2)));

    const restarted = env.newStore();
    expect(await restarted.get('agent:main:kept')).toEqual(kept);
    expect(await restarted.resolveLabel('main', 'keep-me')).toBe('agent:main:kept');
    await expect(fs.stat(stray)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await fs.readFile(indexPath(), 'utf8')).toBe(before);
  });

  it('a failed rename rejects the create, leaves the old index on disk and nothing half-created in memory', async () => {
    const store = env.newStore();
    await store.getOrCreate('agent:main:kept');
    const before = await fs.readFile(indexPath(), 'utf8');
    const rename = jest.spyOn(fs, 'rename').mockRejectedValueOnce(Object.assign(new Error('EIO: simulated crash'), { code: 'EIO' }));

    await expect(store.getOrCreate('agent:main:lost', { label: 'l' })).rejects.toThrow('simulated crash');
    expect(rename).toHaveBeenCalled();
    expect(await fs.readFile(indexPath(), 'utf8')).toBe(before);
    expect(await store.get('agent:main:lost')).toBeUndefined();
    expect(await store.resolveLabel('main', 'l')).toBeUndefined();

    const restarted = env.newStore();
    expect((await restarted.list()).map((e) => e.sessionKey)).toEqual(['agent:main:kept']);
    // The failure is not sticky: the next attempt goes through.
    await expect(store.getOrCreate('agent:main:lost', { label: 'l' })).resolves.toMatchObject({ label: 'l' });
  });

  it('a failed label write restores the previous label', async () => {
    const store = env.newStore();
    await store.getOrCreate('agent:main:a', { label: 'old' });
    jest.spyOn(fs, 'rename').mockRejectedValueOnce(new Error('simulated'));
    await expect(store.setLabel('agent:main:a', 'new')).rejects.toThrow('simulated');
    expect((await store.get('agent:main:a'))?.label).toBe('old');
    expect(await store.resolveLabel('main', 'old')).toBe('agent:main:a');
    expect(await store.resolveLabel('main', 'new')).toBeUndefined();
  });

  it('skips a torn last transcript line with a warning, logs it once, and appends after it cleanly', async () => {
    const store = env.newStore();
    for (const text of ['one', 'two', 'three']) await store.append('agent:main:t', { role: 'user', text });
    const { sessionId } = (await store.get('agent:main:t'))!;
    await store.flush();
    const transcript = path.join(env.sessionsDir('main'), `${sessionId}.jsonl`);
    await fs.appendFile(transcript, '{"id":"x","ts":"2026-11-29T10:00:00.000Z","role":"assis');

    const restarted = env.newStore();
    const torn = await restarted.history('agent:main:t');
    expect(torn.lines.map((l) => l.text)).toEqual(['one', 'two', 'three']);
    expect(torn.warnings).toEqual(['line 4: incomplete last line (interrupted write); skipped']);
    await restarted.history('agent:main:t');
    expect(warn.mock.calls.filter(([m]) => String(m).includes('line 4'))).toHaveLength(1);

    await restarted.append('agent:main:t', { role: 'assistant', text: 'four' });
    const after = await restarted.history('agent:main:t');
    expect(after.lines.map((l) => l.text)).toEqual(['one', 'two', 'three', 'four']);
    expect(after.warnings).toEqual(['line 4: not valid JSON; skipped']);
  });

  it('skips corrupt lines in the middle and lines that are not transcript objects', async () => {
    const store = env.newStore();
    const { sessionId } = await store.getOrCreate('agent:main:c');
    const ok = (text: string) => JSON.stringify({ id: text, ts: '2026-11-29T10:00:00.000Z', role: 'user', text });
    await fs.writeFile(
      path.join(env.sessionsDir('main'), `${sessionId}.jsonl`),
      [ok('a'), 'garbage', '[1,2]', JSON.stringify({ id: 'r', ts: 't', role: 'robot', text: 'x' }), ok('b'), ''].join('\n'),
    );
    const { lines, warnings } = await store.history('agent:main:c');
    expect(lines.map((l) => l.text)).toEqual(['a', 'b']);
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toBe('line 2: not valid JSON; skipped');
  });

  it('reports a missing transcript file as a warning instead of failing', async () => {
    const store = env.newStore();
    const { sessionId } = await store.getOrCreate('agent:main:m');
    await fs.rm(path.join(env.sessionsDir('main'), `${sessionId}.jsonl`));
    expect(await store.history('agent:main:m')).toEqual({ lines: [], warnings: [`transcript ${sessionId}.jsonl is missing`] });
  });

  it('moves a damaged index aside instead of overwriting it, and drops unsafe entries', async () => {
    await fs.mkdir(env.sessionsDir('main'), { recursive: true });
    await fs.writeFile(indexPath(), '{"agent:main:a": {"sessionId": ');
    const store = env.newStore();
    expect(await store.list()).toEqual([]);
    const names = await fs.readdir(env.sessionsDir('main'));
    expect(names.some((n) => n.startsWith('sessions.json.corrupt-'))).toBe(true);
    expect(error).toHaveBeenCalledWith(expect.stringContaining('not a valid session index'));

    const t = new Date().toISOString();
    await fs.writeFile(
      indexPath(),
      JSON.stringify({
        'agent:main:evil': { sessionId: '../../../etc/passwd', createdAt: t, updatedAt: t },
        'agent:other:x': { sessionId: 'abc', createdAt: t, updatedAt: t },
        'agent:main:fine': { sessionId: 'fine-1', createdAt: Date.parse(t), updatedAt: Date.parse(t) },
      }),
    );
    const fresh = env.newStore();
    expect((await fresh.list()).map((e) => [e.sessionKey, e.updatedAt])).toEqual([['agent:main:fine', t]]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('agent:main:evil'));
  });
});
