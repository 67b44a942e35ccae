import { AbortCascade } from './abort-cascade';

describe('AbortCascade', () => {
  it('calls nothing until the abort, then every stop; settled() waits for all, including stops added after the abort', async () => {
    const controller = new AbortController();
    const errors: string[] = [];
    const cascade = new AbortCascade(controller.signal, (err) => errors.push(err.message));
    const order: string[] = [];
    let releaseSlow!: () => void;
    cascade.add(() => {
      order.push('slow stop');
      return new Promise<void>((resolve) => (releaseSlow = resolve)).then(() => order.push('slow stopped'));
    });
    cascade.add(() => {
      throw new Error('this stop throws');
    });
    expect(order).toEqual([]);

    controller.abort(new Error('cancel'));
    cascade.add(() => void order.push('late stop'));
    expect(order).toEqual(['slow stop', 'late stop']);

    const settled = cascade.settled().then(() => order.push('settled'));
    await new Promise((r) => setTimeout(r, 10));
    expect(order).not.toContain('settled');
    releaseSlow();
    await settled;
    expect(order).toEqual(['slow stop', 'late stop', 'slow stopped', 'settled']);
    expect(errors).toEqual(['this stop throws']);
  });

  it('a run that is never aborted never calls its stops', async () => {
    const cascade = new AbortCascade(new AbortController().signal, () => undefined);
    let called = false;
    cascade.add(() => void (called = true));
    await cascade.settled();
    expect(called).toBe(false);
  });
});
