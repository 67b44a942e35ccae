import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import { tempSessionEnv, TempSessionEnv } from '../../../test/support/temp-session-env';

/** A state dir written by the file layout (sessions.json + <sessionId>.jsonl per agent), opened by the database store. */
describe('importing the file layout', () => {
  let env: TempSessionEnv;
  let log: jest.SpyInstance;
  let warn: jest.SpyInstance;
  beforeEach(async () => {
    env = await tempSessionEnv(['main', 'ops']);
    log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await env.cleanup();
  });

  const t0 = '2026-11-29T10:00:00.000Z';
  const line = (id: string, role: string, text: string) => JSON.stringify({ id, ts: t0, role, text });
  const writeLayout = async (agentId: string, index: Record<string, unknown>, transcripts: Record<string, string>) => {
    const dir = env.sessionsDir(agentId);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, 'sessions.json'), JSON.stringify(index));
    for (const [id, text] of Object.entries(transcripts)) await fs.writeFile(path.join(dir, `${id}.jsonl`), text);
  };

  it('brings every session, label, lineage, route and transcript line across, once, with one log line', async () => {
    await writeLayout(
      'main',
      {
        'agent:main:main': { sessionId: 'm1', createdAt: t0, updatedAt: '2026-11-29T11:00:00.000Z', label: 'home' },
        'agent:main:subagent:k': {
          sessionId: 'k1',
          spawnedBy: 'agent:main:main',
          createdAt: Date.parse(t0),
          updatedAt: Date.parse(t0),
          deliveryContext: { channel: 'telegram', to: '42', junk: 1 },
        },
      },
      {
        m1: [line('a', 'user', 'hello'), line('b', 'assistant', 'hi there'), ''].join('\n'),
        // A torn last line (the old layout's crash case) and a corrupt one are skipped and reported.
        k1: [line('c', 'user', 'task'), 'garbage', line('d', 'assistant', 'done'), '{"id":"e","ro'].join('\n'),
      },
    );
    await writeLayout(
      'retired',
      { 'agent:retired:main': { sessionId: 'r1', createdAt: t0, updatedAt: t0 } },
      { r1: line('f', 'user', 'old') },
    );

    const store = env.newStore();
    expect(await store.get('agent:main:main')).toEqual({
      sessionKey: 'agent:main:main',
      sessionId: 'm1',
      agentId: 'main',
      label: 'home',
      createdAt: t0,
      updatedAt: '2026-11-29T11:00:00.000Z',
    });
    expect(await store.get('agent:main:subagent:k')).toMatchObject({
      spawnedBy: 'agent:main:main',
      deliveryContext: { channel: 'telegram', to: '42' },
    });
    expect(await store.resolveLabel('main', 'home')).toBe('agent:main:main');
    expect(await store.isSpawnedBy('agent:main:subagent:k', 'agent:main:main')).toBe(true);
    expect((await store.history('agent:main:main')).lines.map((l) => l.text)).toEqual(['hello', 'hi there']);
    expect((await store.history('agent:main:subagent:k')).lines.map((l) => l.text)).toEqual(['task', 'done']);
    expect((await store.history('agent:retired:main')).lines.map((l) => l.text)).toEqual(['old']);

    const migrated = log.mock.calls.map(([m]) => String(m)).filter((m) => m.startsWith('migrated'));
    expect(migrated).toEqual([expect.stringContaining('migrated 3 session(s) with 5 transcript line(s) of 2 agent(s)')]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('line 2: not valid JSON; skipped'));
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('line 4: incomplete last line (interrupted write); skipped'));
    const names = await fs.readdir(env.sessionsDir('main'));
    expect(names).toContain('sessions.json.migrated');
    expect(names).not.toContain('sessions.json');

    // A second start finds nothing left to import and the same sessions.
    log.mockClear();
    const again = env.newStore();
    expect(await again.list({ agentId: 'main' })).toHaveLength(2);
    expect(log.mock.calls.filter(([m]) => String(m).startsWith('migrated'))).toEqual([]);
  });

  it('finishes an import whose rename a crash prevented, without importing anything twice', async () => {
    await writeLayout(
      'main',
      { 'agent:main:a': { sessionId: 'a1', createdAt: t0, updatedAt: t0 } },
      { a1: `${line('x', 'user', 'once')}\n` },
    );
    const first = env.newStore();
    expect(await first.history('agent:main:a')).toMatchObject({ lines: [expect.objectContaining({ text: 'once' })] });
    // The state a crash between the import's commit and its rename leaves.
    const index = path.join(env.sessionsDir('main'), 'sessions.json');
    await fs.rename(`${index}.migrated`, index);

    const restarted = env.newStore();
    expect((await restarted.history('agent:main:a')).lines.map((l) => l.text)).toEqual(['once']);
    await expect(fs.stat(index)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(fs.stat(`${index}.migrated`)).resolves.toBeTruthy();
  });

  it('keeps a damaged index aside for the operator, and drops unsafe entries with a reason', async () => {
    await fs.mkdir(env.sessionsDir('main'), { recursive: true });
    await fs.writeFile(path.join(env.sessionsDir('main'), 'sessions.json'), '{"agent:main:a": {"sessionId": ');
    await writeLayout(
      'ops',
      {
        'agent:ops:evil': { sessionId: '../../../etc/passwd', createdAt: t0, updatedAt: t0 },
        'agent:other:x': { sessionId: 'abc', createdAt: t0, updatedAt: t0 },
        'agent:ops:fine': { sessionId: 'fine-1', createdAt: Date.parse(t0), updatedAt: Date.parse(t0) },
      },
      {},
    );
    const store = env.newStore();
    expect(await store.list({ agentId: 'main' })).toEqual([]);
    expect((await store.list({ agentId: 'ops' })).map((e) => [e.sessionKey, e.updatedAt])).toEqual([['agent:ops:fine', t0]]);
    const names = await fs.readdir(env.sessionsDir('main'));
    expect(names.some((n) => n.startsWith('sessions.json.corrupt-'))).toBe(true);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('not a valid session index'));
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('agent:ops:evil'));
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('belongs to agent other'));
  });

  it('keeps the database entry when a key is both there and in a file layout found later', async () => {
    const store = env.newStore();
    const live = await store.getOrCreate('agent:main:dup');
    await writeLayout(
      'main',
      { 'agent:main:dup': { sessionId: 'old-dup', createdAt: t0, updatedAt: t0 } },
      { 'old-dup': line('o', 'user', 'stale') },
    );
    const restarted = env.newStore();
    expect(await restarted.get('agent:main:dup')).toEqual(live);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('agent:main:dup is already in the database'));
  });

  it('imports around clashes with the database: a sessionId used twice, a label already held', async () => {
    const store = env.newStore();
    await store.getOrCreate('agent:main:live', { label: 'taken' });
    await writeLayout(
      'main',
      {
        'agent:main:one': { sessionId: 'same-id', createdAt: t0, updatedAt: t0 },
        'agent:main:two': { sessionId: 'same-id', createdAt: t0, updatedAt: t0 },
        'agent:main:three': { sessionId: 'other-id', createdAt: t0, updatedAt: t0, label: 'taken' },
      },
      { 'same-id': `${line('s', 'user', 'shared')}\n`, 'other-id': `${line('o', 'user', 'mine')}\n` },
    );
    const restarted = env.newStore();
    expect(await restarted.get('agent:main:one')).toMatchObject({ sessionId: 'same-id' });
    expect(await restarted.get('agent:main:two')).toBeUndefined();
    expect(await restarted.get('agent:main:three')).not.toHaveProperty('label');
    expect(await restarted.resolveLabel('main', 'taken')).toBe('agent:main:live');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('sessionId same-id is already used'));
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('label "taken" is already held'));
    await expect(fs.stat(path.join(env.sessionsDir('main'), 'sessions.json.migrated'))).resolves.toBeTruthy();
  });
});
