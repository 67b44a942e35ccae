import { chunkFile, chunkSegments, estimateTokens, markdownSegments, transcriptSegments } from './chunker';

const para = (n: number, words = 60) => Array.from({ length: words }, (_, i) => `w${n}x${i}`).join(' ');

describe('chunker', () => {
  it('keeps a small file in one chunk with its line range (blank lines trimmed)', () => {
    const chunks = chunkFile('markdown', '\n# Title\n\nfirst paragraph\nstill first\n\nsecond\n\n');
    expect(chunks).toEqual([{ startLine: 2, endLine: 7, text: '# Title\n\nfirst paragraph\nstill first\n\nsecond' }]);
  });

  it('cuts long files into ~400-token chunks that overlap by at most ~80 tokens', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i} ${'lorem ipsum dolor sit amet '.repeat(2)}`);
    const chunks = chunkFile('markdown', lines.join('\n'));
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) expect(estimateTokens(c.text)).toBeLessThanOrEqual(400);
    for (let i = 1; i < chunks.length; i++) {
      const prev = chunks[i - 1];
      const cur = chunks[i];
      expect(cur.startLine).toBeLessThanOrEqual(prev.endLine); // overlap exists
      expect(cur.startLine).toBeGreaterThan(prev.startLine); // progress
      const shared = lines.slice(cur.startLine - 1, prev.endLine).join('\n');
      expect(estimateTokens(shared)).toBeLessThanOrEqual(80 + 2);
    }
    expect(chunks[chunks.length - 1].endLine).toBe(100);
  });

  it('snaps a cut to the next heading when the chunk is at least half full', () => {
    const text = [`# A`, para(1, 200), `# B`, para(2, 200), `# C`, para(3, 200)].join('\n\n');
    const chunks = chunkFile('markdown', text, { overlapTokens: 0 });
    expect(chunks.map((c) => c.text.split('\n')[0])).toEqual(['# A', '# B', '# C']);
    expect(chunks.map((c) => c.startLine)).toEqual([1, 5, 9]);
  });

  it('does not treat # inside code fences as headings', () => {
    const segs = markdownSegments('intro\n```sh\n# comment\n```\nafter');
    expect(segs.map((s) => s.boundary)).toEqual([1, 1, 0, 0, 0]);
  });

  it('splits a very long single line into pieces of the same line number', () => {
    const long = Array.from({ length: 400 }, (_, i) => `Sentence number ${i} is here.`).join(' ');
    const chunks = chunkFile('markdown', `head\n${long}`);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((c) => c.endLine === 2)).toBe(true);
    expect(chunks.slice(1).every((c) => c.startLine === 2)).toBe(true);
  });

  it('indexes transcripts as user/assistant text only, with JSONL line numbers', () => {
    const jsonl = [
      JSON.stringify({ id: '1', ts: 't', role: 'system', text: 'run failed' }),
      JSON.stringify({ id: '2', ts: 't', role: 'user', text: 'the boiler code is 4471' }),
      JSON.stringify({ id: '3', ts: 't', role: 'tool', text: '{"status":"ok"}' }),
      JSON.stringify({ id: '4', ts: 't', role: 'assistant', text: 'noted' }),
      '{"id":"5","ts":"t","role":"user","te',
    ].join('\n');
    expect(transcriptSegments(jsonl).map((s) => [s.line, s.text])).toEqual([
      [2, 'user: the boiler code is 4471'],
      [4, 'assistant: noted'],
    ]);
    expect(chunkFile('transcript', jsonl)).toEqual([
      { startLine: 2, endLine: 4, text: 'user: the boiler code is 4471\n\nassistant: noted' },
    ]);
  });

  it('returns nothing for empty input', () => {
    expect(chunkSegments([])).toEqual([]);
    expect(chunkFile('markdown', '\n\n')).toEqual([]);
  });
});
