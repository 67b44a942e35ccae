import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Example } from './example-steps';
import { startTestGateway, TestGateway } from './gateway-harness';
import { API_CLIENT } from './admin-client';

/**
 * Boots every gateway of an example the way its README does — its config file as written, the variables the
 * README exports — with the harness's free port and temp state dir instead of the fixed ones. Configs that
 * name another gateway of the example by its README port (`http://127.0.0.1:18790`) get that gateway's real
 * address; a gateway started before the one it names is rewritten and reloaded once the other listens.
 */
export interface RunningExample {
  /** By gateway name. */
  gateways: Map<string, TestGateway>;
  stop(): Promise<void>;
}

export async function startExample(example: Example): Promise<RunningExample> {
  const { env, gateways: declared } = example.requests;
  const texts = new Map(declared.map((g) => [g.name, readFileSync(path.join(example.dir, g.config), 'utf8')]));
  const started = new Map<string, TestGateway>();
  const rewrite = (text: string) =>
    declared.reduce((t, g) => {
      const gw = started.get(g.name);
      return gw ? t.split(`http://127.0.0.1:${g.port}`).join(gw.url) : t;
    }, text);
  try {
    for (const g of declared) started.set(g.name, await startTestGateway(rewrite(texts.get(g.name)!), { env }));
    for (const g of declared) {
      const text = rewrite(texts.get(g.name)!);
      const gw = started.get(g.name)!;
      if (text === readFileSync(gw.configPath, 'utf8')) continue;
      await gw.writeConfig(text);
      const res = await fetch(`${gw.url}/admin/config/reload`, { method: 'POST', headers: API_CLIENT });
      if (res.status !== 200) throw new Error(`reloading ${g.name} with its peers' addresses: HTTP ${res.status} ${await res.text()}`);
    }
  } catch (err) {
    await Promise.all([...started.values()].map((gw) => gw.stop()));
    throw err;
  }
  return {
    gateways: started,
    stop: async () => {
      await Promise.all([...started.values()].map((gw) => gw.stop()));
    },
  };
}
