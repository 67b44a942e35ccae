import { GraphvizRenderer } from './graphviz-renderer';

describe('GraphvizRenderer (a real Graphviz worker)', () => {
  const renderer = new GraphvizRenderer();
  afterAll(() => renderer.onApplicationShutdown());

  it('lays DOT out as SVG, answers a layout Graphviz refuses with its error, and keeps drawing after it', async () => {
    const svg = await renderer.render('digraph { a -> b }');
    expect(svg).toContain('<svg');
    expect(svg).toContain('>a</text>');
    await expect(renderer.render('digraph { a -> ')).rejects.toThrow(/graphviz could not lay out the topology: .*syntax error/);
    await expect(renderer.render('digraph { c }')).resolves.toContain('>c</text>');
  });

  it('draws concurrent pictures each with its own answer', async () => {
    const [x, y] = await Promise.all([renderer.render('digraph { x }'), renderer.render('digraph { y }')]);
    expect(x).toContain('>x</text>');
    expect(y).toContain('>y</text>');
  });
});
