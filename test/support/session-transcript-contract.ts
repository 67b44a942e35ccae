import type { TranscriptAppended } from '../../src/modules/sessions/session-store.port';
import { asHttp } from './as-http';
import { pause, type ContractContext } from './session-store-fixture';

/** The transcript half of the SessionStore contract (session-store-contract.ts): appends, history, export, versions. */
export function describeTranscriptContract(ctx: ContractContext): void {
  const reopen = () => ctx.fixture.open();

  describe('transcripts', () => {
    it('keeps call order for 200 concurrent appends to one session, and loses none', async () => {
      const key = 'agent:main:busy';
      const written = await Promise.all(Array.from({ length: 200 }, (_, i) => ctx.store.append(key, { role: 'user', text: `m${i}` })));
      expect(new Set(written.map((l) => l.id)).size).toBe(200);
      const { lines, warnings } = await ctx.store.history(key);
      expect(warnings).toEqual([]);
      expect(lines.map((l) => l.text)).toEqual(Array.from({ length: 200 }, (_, i) => `m${i}`));
      const restarted = await (await reopen()).history(key);
      expect(restarted.lines.map((l) => l.text)).toEqual(lines.map((l) => l.text));
    });

    it('returns the last `limit` lines, and filters tool lines before limiting when includeTools is false', async () => {
      const key = 'agent:main:h';
      await ctx.store.append(key, { role: 'user', text: 'q1' });
      await ctx.store.append(key, { role: 'assistant', text: 'calling', toolCalls: [{ name: 'memory_search' }] });
      await ctx.store.append(key, { role: 'tool', text: 'result' });
      await ctx.store.append(key, { role: 'assistant', text: 'a1', runId: 'r1' });
      expect((await ctx.store.history(key, { limit: 2 })).lines.map((l) => l.text)).toEqual(['result', 'a1']);
      const noTools = await ctx.store.history(key, { limit: 2, includeTools: false });
      expect(noTools.lines.map((l) => l.text)).toEqual(['calling', 'a1']);
      expect(noTools.lines[0]).not.toHaveProperty('toolCalls');
      expect((await ctx.store.history(key, { includeTools: false })).lines.map((l) => l.text)).toEqual(['q1', 'calling', 'a1']);
      expect((await ctx.store.history(key)).lines).toHaveLength(4);
      const restarted = await reopen();
      for (const options of [{ limit: 1 }, { limit: 3 }, {}, { limit: 2, includeTools: false }]) {
        expect((await restarted.history(key, options)).lines).toEqual((await ctx.store.history(key, options)).lines);
      }
      await expect(asHttp(ctx.store.history(key, { limit: 0 }))).rejects.toMatchObject({ status: 400 });
      await expect(asHttp(ctx.store.history('agent:main:none'))).rejects.toMatchObject({ status: 404 });
    });

    it('rejects lines without a known role or text, and bumps updatedAt on append', async () => {
      const created = await ctx.store.getOrCreate('agent:main:u');
      await expect(asHttp(ctx.store.append('agent:main:u', { role: 'robot' as 'user', text: 'x' }))).rejects.toMatchObject({ status: 400 });
      await expect(asHttp(ctx.store.append('agent:main:u', { role: 'user', text: 7 as unknown as string }))).rejects.toMatchObject({
        status: 400,
      });
      await pause(5);
      await ctx.store.append('agent:main:u', { role: 'system', text: 'hello' });
      const after = await ctx.store.get('agent:main:u');
      expect(Date.parse(after!.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
      expect((await (await reopen()).get('agent:main:u'))?.updatedAt).toBe(after!.updatedAt);
    });

    it('knows a new session is empty, and a history asked for after an append waits for it', async () => {
      const key = 'agent:main:fresh';
      await ctx.store.getOrCreate(key);
      expect((await ctx.store.history(key, { limit: 40 })).lines).toEqual([]);
      const pending = ctx.store.append(key, { role: 'user', text: 'hi' });
      expect((await ctx.store.history(key, { limit: 40 })).lines.map((l) => l.text)).toEqual(['hi']);
      await pending;
    });

    it('answers in call order while a write of the same session is pending', async () => {
      await ctx.store.getOrCreate('agent:main:order', { label: 'A' });
      const relabel = ctx.store.setLabel('agent:main:order', 'B');
      const after = ctx.store.getOrCreate('agent:main:order');
      await relabel;
      expect((await after).label).toBe('B');
      // A session whose creating append is still pending exists for a get() made after it.
      const appended = ctx.store.append('agent:main:brand-new', { role: 'user', text: 'hi' });
      expect(await ctx.store.get('agent:main:brand-new')).toMatchObject({ sessionKey: 'agent:main:brand-new' });
      await appended;
    });

    it('creates the session an append names with its creation options, and applies later ones as getOrCreate does', async () => {
      const key = 'agent:main:subagent:made-by-append';
      await ctx.store.append(key, { role: 'user', text: 'one' }, { spawnedBy: 'agent:main:main', deliveryContext: { channel: 'a' } });
      expect(await ctx.store.get(key)).toMatchObject({ spawnedBy: 'agent:main:main', deliveryContext: { channel: 'a' } });
      // A newer delivery context is taken, spawnedBy stays as created, no options leave the context alone.
      await ctx.store.append(key, { role: 'assistant', text: 'two' }, { spawnedBy: 'agent:main:other', deliveryContext: { channel: 'b' } });
      await ctx.store.append(key, { role: 'user', text: 'three' });
      expect(await ctx.store.get(key)).toMatchObject({ spawnedBy: 'agent:main:main', deliveryContext: { channel: 'b' } });
      // A label asked for through an append is checked like any claim.
      await ctx.store.getOrCreate('agent:main:holder', { label: 'taken' });
      await expect(asHttp(ctx.store.append(key, { role: 'user', text: 'four' }, { label: 'taken' }))).rejects.toMatchObject({
        status: 409,
      });
      await ctx.store.append(key, { role: 'user', text: 'five' }, { label: 'mine' });
      expect(await ctx.store.get(key)).toMatchObject({ label: 'mine' });
      expect((await ctx.store.history(key, { limit: 10 })).lines.map((l) => l.text)).toEqual(['one', 'two', 'three', 'five']);
    });

    it('reports a transcript row damaged by hand as a warning and still serves the good lines', async () => {
      await ctx.store.append('agent:ops:torn', { role: 'user', text: 'intact' });
      await ctx.store.append('agent:ops:torn', { role: 'assistant', text: 'to be damaged' });
      const id = await ctx.fixture.damageLastLine('{"id":"x","role":"us');
      const restarted = await (await reopen()).history('agent:ops:torn', { limit: 10 });
      expect(restarted.lines.map((l) => l.text)).toEqual(['intact']);
      expect(restarted.warnings).toEqual([`transcript row ${id} is not valid JSON; skipped`]);
    });

    it('refuses one failing write alone; the writes around it are stored', async () => {
      await ctx.store.getOrCreate('agent:main:holder', { label: 'taken' });
      const results = await Promise.allSettled([
        ctx.store.append('agent:main:x', { role: 'user', text: 'kept 1' }),
        ctx.store.getOrCreate('agent:main:y', { label: 'taken' }),
        ctx.store.append('agent:main:x', { role: 'user', text: 'kept 2' }),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      const restarted = await reopen();
      expect(await restarted.get('agent:main:y')).toBeUndefined();
      expect((await restarted.history('agent:main:x')).lines.map((l) => l.text)).toEqual(['kept 1', 'kept 2']);
    });
  });

  describe('append with creation options', () => {
    const deliveryContext = { channel: 'a2a', accountId: 'default', to: 'peer:ctx-1' };

    it('creates the session with its options and the line, and a restarted store reads both', async () => {
      const line = await ctx.store.append('agent:main:a2a:one', { role: 'user', text: 'hi' }, { deliveryContext, label: 'first' });
      const restarted = await reopen();
      const entry = await restarted.get('agent:main:a2a:one');
      expect(entry).toMatchObject({ deliveryContext, label: 'first' });
      expect((await restarted.history('agent:main:a2a:one')).lines).toEqual([line]);
      expect(await ctx.store.get('agent:main:a2a:one')).toEqual(entry);
    });

    it('updates an existing session as getOrCreate would: a new delivery context replaces the stored one', async () => {
      await ctx.store.getOrCreate('agent:main:a2a:two', { deliveryContext });
      const moved = { ...deliveryContext, to: 'peer:ctx-2' };
      await ctx.store.append('agent:main:a2a:two', { role: 'user', text: 'again' }, { deliveryContext: moved });
      expect((await (await reopen()).get('agent:main:a2a:two'))?.deliveryContext).toEqual(moved);
      expect((await ctx.store.get('agent:main:a2a:two'))?.deliveryContext).toEqual(moved);
    });

    it('refuses a label another session holds (409) and writes neither the session nor the line', async () => {
      await ctx.store.getOrCreate('agent:main:holder', { label: 'taken' });
      await ctx.store.getOrCreate('agent:main:old');
      await expect(ctx.store.append('agent:main:newcomer', { role: 'user', text: 'hi' }, { label: 'taken' })).rejects.toMatchObject({
        code: 'CONFLICT',
        message: expect.stringContaining('agent:main:holder'),
      });
      await expect(ctx.store.append('agent:main:old', { role: 'user', text: 'hi' }, { label: 'taken' })).rejects.toMatchObject({
        code: 'CONFLICT',
      });
      const restarted = await reopen();
      expect(await restarted.get('agent:main:newcomer')).toBeUndefined();
      expect(await ctx.store.get('agent:main:newcomer')).toBeUndefined();
      expect((await restarted.history('agent:main:old')).lines).toEqual([]);
    });

    it('rejects bad creation options before writing anything (400 naming the field)', async () => {
      await expect(
        ctx.store.append('agent:main:bad', { role: 'user', text: 'hi' }, { deliveryContext: { to: 7 } as never }),
      ).rejects.toMatchObject({ message: 'deliveryContext.to must be a string' });
      await expect(ctx.store.append('agent:main:bad', { role: 'user', text: 'hi' }, { spawnedBy: 'agent:main:bad' })).rejects.toMatchObject(
        {
          message: 'a session cannot be spawned by itself',
        },
      );
      expect(await ctx.store.get('agent:main:bad')).toBeUndefined();
    });
  });

  describe('export and memory feed', () => {
    it('exports the whole transcript as JSONL, oldest first, in chunks of whole lines', async () => {
      const key = 'agent:main:long';
      await Promise.all(Array.from({ length: 2100 }, (_, i) => ctx.store.append(key, { role: 'user', text: `line ${i}` })));
      const chunks: string[] = [];
      for await (const chunk of ctx.store.exportTranscript(key)) chunks.push(chunk);
      expect(chunks.length).toBeGreaterThan(1);
      expect(chunks.every((c) => c.endsWith('\n'))).toBe(true);
      const lines = chunks
        .join('')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { text: string });
      expect(lines.map((l) => l.text)).toEqual(Array.from({ length: 2100 }, (_, i) => `line ${i}`));
      const unknown = ctx.store.exportTranscript('agent:main:none')[Symbol.asyncIterator]();
      await expect(asHttp(unknown.next())).rejects.toMatchObject({ status: 404 });
    });

    it('reports a new version per append and tells listeners after the commit', async () => {
      const seen: TranscriptAppended[] = [];
      const stop = ctx.store.onAppend((e) => seen.push(e));
      const { sessionId } = await ctx.store.getOrCreate('agent:main:v');
      expect(await ctx.store.transcriptVersions('main')).toEqual([
        expect.objectContaining({ sessionKey: 'agent:main:v', sessionId, version: 0 }),
      ]);
      await ctx.store.append('agent:main:v', { role: 'user', text: 'one' });
      const [v1] = await ctx.store.transcriptVersions('main');
      await ctx.store.append('agent:main:v', { role: 'assistant', text: 'two' });
      const [v2] = await ctx.store.transcriptVersions('main');
      expect(v2.version).toBeGreaterThan(v1.version);
      expect(await ctx.store.transcriptVersion('main', sessionId)).toEqual(v2);
      expect(await ctx.store.transcriptVersion('ops', sessionId)).toBeUndefined();
      expect(await ctx.store.transcriptVersion('main', 'no-such-id')).toBeUndefined();
      expect(seen).toEqual([
        { agentId: 'main', sessionKey: 'agent:main:v', sessionId },
        { agentId: 'main', sessionKey: 'agent:main:v', sessionId },
      ]);
      stop();
      await ctx.store.append('agent:main:v', { role: 'user', text: 'three' });
      expect(seen).toHaveLength(2);
    });
  });
}
