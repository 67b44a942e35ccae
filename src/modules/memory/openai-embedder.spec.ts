import { FakeEmbeddingsServer } from '../../../test/fixtures/memory/fake-embeddings-server';
import { OpenAiEmbedder } from './openai-embedder';

describe('OpenAiEmbedder against a local OpenAI-format server', () => {
  const server = new FakeEmbeddingsServer('sk-local');
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await server.start();
  });
  afterAll(() => server.stop());

  it('POSTs {model, input} to {baseUrl}/v1/embeddings with the bearer key and returns unit vectors in order', async () => {
    const embedder = new OpenAiEmbedder({ baseUrl, apiKey: 'sk-local', model: 'text-embedding-3-small' });
    const vectors = await embedder.embed(['red apples', 'blue boats']);
    expect(server.requests.at(-1)).toEqual({
      path: '/v1/embeddings',
      authorization: 'Bearer sk-local',
      body: { model: 'text-embedding-3-small', input: ['red apples', 'blue boats'] },
    });
    expect(vectors).toHaveLength(2);
    expect(vectors[0]).toHaveLength(48);
    expect(Math.hypot(...vectors[0])).toBeCloseTo(1, 5);
    expect(embedder.fingerprint).toBe(`openai:${baseUrl}:text-embedding-3-small`);
  });

  it('accepts a baseUrl that already ends in /v1', async () => {
    const embedder = new OpenAiEmbedder({ baseUrl: `${baseUrl}/v1/`, apiKey: 'sk-local', model: 'm' });
    await embedder.embed(['x']);
    expect(server.requests.at(-1)?.path).toBe('/v1/embeddings');
    expect(embedder.fingerprint).toBe(`openai:${baseUrl}:m`);
  });

  it('splits large inputs into several requests', async () => {
    const before = server.requests.length;
    const vectors = await new OpenAiEmbedder({ baseUrl, apiKey: 'sk-local', model: 'm' }).embed(
      Array.from({ length: 130 }, (_, i) => `t${i}`),
    );
    expect(vectors).toHaveLength(130);
    expect(server.requests.length - before).toBe(3);
  });

  it("reports the provider's error message and status", async () => {
    await expect(new OpenAiEmbedder({ baseUrl, apiKey: 'wrong', model: 'm' }).embed(['x'])).rejects.toThrow(
      'embeddings endpoint answered HTTP 401: Incorrect API key provided.',
    );
  });
});
