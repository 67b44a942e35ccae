import { Injectable } from '@nestjs/common';
import { instance, type Viz } from '@viz-js/viz';

/**
 * Graphviz (compiled to WebAssembly by @viz-js/viz) loaded once per process, on the first picture, and reused:
 * the module is ~2 MB of wasm and its start costs about 100 ms, a layout then costs only itself. Rendering is
 * synchronous inside the wasm, so one picture at a time holds the event loop for its layout (< 1 s at 50
 * agents, `npm run bench:topology`).
 */
let loading: Promise<Viz> | undefined;

export function graphviz(): Promise<Viz> {
  loading ??= instance().catch((err: unknown) => {
    loading = undefined; // a failed load is tried again by the next picture
    throw err;
  });
  return loading;
}

/** DOT text → SVG, with the dot engine. A layout Graphviz refuses is a bug in the DOT builder, never the caller's. */
export async function renderSvg(dot: string): Promise<string> {
  const viz = await graphviz();
  const result = viz.render(dot, { format: 'svg', engine: 'dot' });
  if (result.status !== 'success')
    throw new Error(`graphviz could not lay out the topology: ${result.errors.map((e) => e.message).join('; ')}`);
  return result.output;
}

@Injectable()
export class GraphvizRenderer {
  render(dot: string): Promise<string> {
    return renderSvg(dot);
  }
}
