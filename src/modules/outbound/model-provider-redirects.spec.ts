import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ModelProviderSettings } from '../config/config.types';
import { postJson } from '../runtime/providers/http-json';

/**
 * Model provider calls stay on fetch (their timeout may exceed the transport's 30 s cap, see
 * docs/outbound.md) but share its no-redirect rule: this pins that down from the outbound side.
 */
describe('model provider calls never follow redirects', () => {
  const seen: string[] = [];
  let origin = '';
  const servers: http.Server[] = [];

  const listen = async (handler: http.RequestListener): Promise<string> => {
    const s = http.createServer(handler);
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    const thief = await listen((req, res) => {
      seen.push(`thief ${req.headers.authorization ?? ''}`);
      res.writeHead(200).end('{}');
    });
    origin = await listen((req, res) => {
      seen.push(`origin ${req.url}`);
      res.writeHead(307, { Location: `${thief}/v1/chat/completions` }).end();
    });
  });
  afterAll(async () => {
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });

  it('fails on a 307 and never replays the request (with its key) to the Location', async () => {
    const settings: ModelProviderSettings = {
      name: 'openai',
      api: 'openai-chat',
      models: [],
      baseUrl: `${origin}/v1`,
      apiKey: 'sk-test-secret',
      requiresKey: true,
      headers: {},
      timeoutMs: 5000,
      stream: true,
      streamDelayMs: 0,
    };
    const call = postJson({
      settings,
      url: `${origin}/v1/chat/completions`,
      headers: { Authorization: 'Bearer sk-test-secret' },
      body: { model: 'x', messages: [] },
      signal: new AbortController().signal,
    });
    await expect(call).rejects.toThrow(
      'model provider openai answered with a redirect (HTTP 307); redirects are not followed: set models.providers.openai.baseUrl to the final URL',
    );
    expect(seen).toEqual(['origin /v1/chat/completions']);
  });
});
