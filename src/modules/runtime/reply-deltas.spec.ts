import { RoundDeltas, type ReplyDelta } from './reply-deltas';

describe('RoundDeltas', () => {
  const collect = (round = 0) => {
    const seen: ReplyDelta[] = [];
    const errors: string[] = [];
    const deltas = new RoundDeltas(
      (d) => seen.push(d),
      round,
      (e) => errors.push(e.message),
    );
    return { seen, errors, deltas };
  };

  it('passes streamed pieces on with their round, and nothing more when the answer is what streamed', () => {
    const { seen, errors, deltas } = collect(2);
    deltas.push('Hel');
    deltas.push('');
    deltas.push('lo');
    deltas.finish('Hello');
    expect(seen).toEqual([
      { round: 2, text: 'Hel' },
      { round: 2, text: 'lo' },
    ]);
    expect(errors).toEqual([]);
  });

  it('reports the whole text as one delta when the provider did not stream, and the rest when it stopped short', () => {
    const whole = collect();
    whole.deltas.finish('all at once');
    expect(whole.seen).toEqual([{ round: 0, text: 'all at once', unstreamed: true }]);
    const rest = collect();
    rest.deltas.push('all ');
    rest.deltas.finish('all at once');
    expect(rest.seen.map((d) => d.text).join('')).toBe('all at once');
    // Only the part the stream left out is marked: it came with the answer.
    expect(rest.seen.map((d) => d.unstreamed)).toEqual([undefined, true]);
  });

  it('an empty answer has no delta; a listener that throws is reported, not thrown', () => {
    const empty = collect();
    empty.deltas.finish('');
    expect(empty.seen).toEqual([]);
    const errors: string[] = [];
    const throwing = new RoundDeltas(
      () => {
        throw new Error('listener broke');
      },
      0,
      (e) => errors.push(e.message),
    );
    expect(() => throwing.push('x')).not.toThrow();
    expect(errors).toEqual(['listener broke']);
  });

  it('says so when the streamed text is not a prefix of the answer', () => {
    const { seen, errors, deltas } = collect(1);
    deltas.push('abc');
    deltas.finish('xyz');
    expect(seen).toEqual([{ round: 1, text: 'abc' }]);
    expect(errors).toEqual(["round 1: the streamed text differs from the answer's text"]);
  });
});
