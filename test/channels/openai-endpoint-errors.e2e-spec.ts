import * as http from 'node:http';
import request from 'supertest';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';

/**
 * Every refusal of the OpenAI-compatible endpoint, over real HTTP: each answers OpenAI's
 * `{error: {message, type, param, code}}` naming what was wrong, and the gateway stays up.
 * See docs/openai-endpoint.md#errors.
 */
const KEY = 'sk-clawgate-errors-0123456789abcdef';
const SUPPORT_ONLY = 'sk-clawgate-support-only-012345678';
/** Used only by the rate-limit test, so their windows start empty there. */
const TIGHT = 'sk-clawgate-tight-0123456789abcdef';
const SPARE = 'sk-clawgate-spare-0123456789abcdef';

const config = ({ enabled = true, limit = 1000 } = {}) => `{
  agents: { list: [{ id: "main", default: true }, { id: "support" }, { id: "expert" }] },
  gateway: { http: { endpoints: { chatCompletions: {
    enabled: ${enabled},
    rateLimitPerMinute: ${limit},
    keys: [
      { name: "all", token: "${KEY}", agents: ["*"] },
      { name: "support", token: "${SUPPORT_ONLY}", agents: ["support"] },
      { name: "ghost", token: "\${GHOST_KEY}", agents: ["*"] },
      { name: "tight", token: "${TIGHT}", agents: ["main"] },
      { name: "spare", token: "${SPARE}", agents: ["main"] },
    ],
  } } } },
}`;

const good = { model: 'agent:main', messages: [{ role: 'user', content: 'hello' }] };

describe('OpenAI-compatible endpoint: errors (e2e)', () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway(config());
  });
  afterAll(() => gw?.stop());

  const post = (body: unknown, headers: Record<string, string> = {}) => {
    const req = request(gw.url).post('/v1/chat/completions').set('Authorization', `Bearer ${KEY}`).set(headers);
    return typeof body === 'string' ? req.set('Content-Type', 'application/json').send(body) : req.send(body as object);
  };
  const expectError = (
    res: request.Response,
    status: number,
    error: { message: string | RegExp; param?: string | null; code?: string | null },
  ) => {
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toContain('application/json');
    expect(Object.keys(res.body)).toEqual(['error']);
    expect(Object.keys(res.body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
    expect(res.body.error.type).toBe(status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error');
    if (typeof error.message === 'string') expect(res.body.error.message).toBe(error.message);
    else expect(res.body.error.message).toMatch(error.message);
    if (error.param !== undefined) expect(res.body.error.param).toBe(error.param);
    if (error.code !== undefined) expect(res.body.error.code).toBe(error.code);
  };

  describe('keys', () => {
    it.each([
      ['no Authorization header', undefined],
      ['a wrong key', 'sk-clawgate-errors-0123456789abcdeX'],
      ['another scheme', `Basic ${KEY}`],
      ['the literal ${VAR} of a key whose variable is unset', 'Bearer ${GHOST_KEY}'],
    ])('answers %s with 401 invalid_api_key, before reading the body', async (_what, auth) => {
      let req = request(gw.url).post('/v1/chat/completions').set('Content-Type', 'application/json');
      if (auth !== undefined) req = req.set('Authorization', auth.startsWith('B') ? auth : `Bearer ${auth}`);
      const res = await req.send('{"not json');
      expectError(res, 401, { message: 'Incorrect API key provided', param: null, code: 'invalid_api_key' });
      expect(res.headers['www-authenticate']).toMatch(/^Bearer /);
    });

    it('answers 401 on GET /v1/models too', async () => {
      const res = await request(gw.url).get('/v1/models');
      expectError(res, 401, { message: 'Incorrect API key provided', code: 'invalid_api_key' });
    });
  });

  describe('the body', () => {
    it('answers malformed JSON with 400 invalid_json', async () => {
      expectError(await post('{"model": "agent:main",'), 400, {
        message: /could not parse the JSON body/,
        param: null,
        code: 'invalid_json',
      });
    });

    it('answers a body over 1 MiB with 413, and closes the connection', async () => {
      const res = await post({ ...good, messages: [{ role: 'user', content: 'x'.repeat(1024 * 1024 + 10) }] });
      expectError(res, 413, { message: 'the request body is larger than 1048576 bytes', code: 'request_too_large' });
    });

    it('answers a body nested deeper than 64 levels with 400', async () => {
      const res = await post(
        `{"model":"agent:main","messages":[{"role":"user","content":"x"}],"metadata":${'['.repeat(100)}${']'.repeat(100)}}`,
      );
      expectError(res, 400, { message: 'the request body is nested more than 64 levels deep', code: 'invalid_json' });
    });

    it.each<[string, unknown, string, string | null, string]>([
      ['a JSON array', [1], 'the request body must be a JSON object', null, 'invalid_request_body'],
      [
        'a missing model',
        { messages: good.messages },
        'you must provide a model parameter ("agent:<agent id>")',
        'model',
        'missing_required_parameter',
      ],
      ['a model that is not a string', { ...good, model: 7 }, 'model must be a non-empty string', 'model', 'invalid_type'],
      [
        'an agent id that cannot be one',
        { ...good, model: 'agent:Not An Id!' },
        'model: "Not An Id!" is not an agent id ([a-z0-9][a-z0-9_-]{0,63})',
        'model',
        'invalid_value',
      ],
      ['missing messages', { model: 'agent:main' }, "'messages' is a required property", 'messages', 'missing_required_parameter'],
      ['empty messages', { ...good, messages: [] }, "'messages' must be a non-empty array", 'messages', 'invalid_type'],
      ['messages that are not an array', { ...good, messages: 'hi' }, "'messages' must be a non-empty array", 'messages', 'invalid_type'],
      ['a message that is not an object', { ...good, messages: ['hi'] }, 'messages[0] must be an object', 'messages[0]', 'invalid_type'],
      [
        'an unknown role',
        { ...good, messages: [{ role: 'robot', content: 'x' }] },
        'messages[0].role must be one of system, developer, user, assistant, tool, function',
        'messages[0].role',
        'invalid_value',
      ],
      [
        'no user message',
        { ...good, messages: [{ role: 'system', content: 'x' }] },
        'messages must contain a user message',
        'messages',
        'invalid_value',
      ],
      [
        'an empty last user message',
        { ...good, messages: [{ role: 'user', content: '  ' }] },
        'the last user message is empty',
        'messages',
        'invalid_value',
      ],
      [
        'a user message over 65536 characters',
        { ...good, messages: [{ role: 'user', content: 'y'.repeat(65_537) }] },
        'the last user message is longer than 65536 characters',
        'messages',
        'string_above_max_length',
      ],
      [
        'user content that is a number',
        { ...good, messages: [{ role: 'user', content: 5 }] },
        'messages[0].content must be a string or an array of text parts',
        'messages[0].content',
        'invalid_type',
      ],
      [
        'an image part',
        { ...good, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }] },
        'messages[0].content[0].type: only text content is supported (got "image_url")',
        'messages[0].content[0].type',
        'unsupported_value',
      ],
      [
        'a text part without text',
        { ...good, messages: [{ role: 'user', content: [{ type: 'text' }] }] },
        'messages[0].content[0].text must be a string',
        'messages[0].content[0].text',
        'invalid_type',
      ],
      ['a non-boolean stream', { ...good, stream: 'yes' }, 'stream must be a boolean', 'stream', 'invalid_type'],
      [
        'stream_options without stream',
        { ...good, stream_options: { include_usage: true } },
        "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
        'stream_options',
        'invalid_value',
      ],
      [
        'stream_options that is not an object',
        { ...good, stream: true, stream_options: true },
        'stream_options must be an object',
        'stream_options',
        'invalid_type',
      ],
      [
        'a non-boolean include_usage',
        { ...good, stream: true, stream_options: { include_usage: 1 } },
        'stream_options.include_usage must be a boolean',
        'stream_options.include_usage',
        'invalid_type',
      ],
      [
        'an unknown stream option',
        { ...good, stream: true, stream_options: { chunky: true } },
        'Unrecognized request argument supplied: stream_options.chunky',
        'stream_options.chunky',
        'unknown_parameter',
      ],
      [
        'a user that is not a string',
        { ...good, user: 42 },
        'user must be a string of 1–256 printable characters',
        'user',
        'invalid_value',
      ],
      [
        'a user with a control character',
        { ...good, user: 'a\nb' },
        'user must be a string of 1–256 printable characters',
        'user',
        'invalid_value',
      ],
      [
        'a user over 256 characters',
        { ...good, user: 'u'.repeat(257) },
        'user must be a string of 1–256 printable characters',
        'user',
        'invalid_value',
      ],
      [
        'an unknown parameter',
        { ...good, temprature: 1 },
        'Unrecognized request argument supplied: temprature',
        'temprature',
        'unknown_parameter',
      ],
      [
        'request tools',
        { ...good, tools: [] },
        "tools from the request are not supported: the agent's own tools are used",
        'tools',
        'unsupported_parameter',
      ],
      ['n above 1', { ...good, n: 2 }, 'n has an invalid value', 'n', 'invalid_value'],
      [
        'a temperature that is not a number',
        { ...good, temperature: 'hot' },
        'temperature has an invalid value',
        'temperature',
        'invalid_value',
      ],
      [
        'a json response_format',
        { ...good, response_format: { type: 'json_object' } },
        'response_format has an invalid value',
        'response_format',
        'invalid_value',
      ],
    ])('answers %s with 400 naming it', async (_what, body, message, param, code) => {
      expectError(await post(body), 400, { message, param, code });
    });

    it('accepts and ignores the sampling parameters OpenAI clients send', async () => {
      const res = await post({
        ...good,
        temperature: 0.2,
        top_p: 1,
        max_tokens: 50,
        stop: ['\n'],
        seed: 1,
        n: 1,
        store: false,
        metadata: {},
      });
      expect(res.status).toBe(200);
      expect(res.body.choices[0].message.content).toBe('[main] hello');
    });
  });

  describe('the agent and the session', () => {
    it('answers an unknown agent the key may use with 404 model_not_found', async () => {
      expectError(await post({ ...good, model: 'agent:nobody' }), 404, {
        message: 'The model `agent:nobody` does not exist',
        param: 'model',
        code: 'model_not_found',
      });
    });

    it('answers a model that is not agent:<id> with 404 model_not_found, pointing at the models list', async () => {
      expectError(await post({ ...good, model: 'gpt-4o' }), 404, {
        message: /^The model `gpt-4o` does not exist: use "agent:<agent id>"/,
        code: 'model_not_found',
      });
    });

    it('answers an agent outside the key with 403 whether it exists or not', async () => {
      const asSupport = (model: string) =>
        request(gw.url)
          .post('/v1/chat/completions')
          .set('Authorization', `Bearer ${SUPPORT_ONLY}`)
          .send({ ...good, model });
      expectError(await asSupport('agent:expert'), 403, {
        message: 'this key may not use the model `agent:expert`',
        code: 'model_not_allowed',
      });
      expectError(await asSupport('agent:nobody'), 403, {
        message: 'this key may not use the model `agent:nobody`',
        code: 'model_not_allowed',
      });
    });

    it.each<[string, Record<string, string>, string, string, string]>([
      [
        'a header agent that contradicts the model',
        { 'x-openclaw-agent-id': 'support' },
        'model names agent "main" but x-openclaw-agent-id names "support"',
        'model',
        'agent_mismatch',
      ],
      [
        'a header agent that is no agent id',
        { 'x-openclaw-agent-id': 'Bad Id' },
        'x-openclaw-agent-id: "Bad Id" is not an agent id ([a-z0-9][a-z0-9_-]{0,63})',
        'x-openclaw-agent-id',
        'invalid_value',
      ],
      [
        'a session key that is not one',
        { 'x-openclaw-session-key': 'nonsense' },
        'x-openclaw-session-key: invalid session key "nonsense": missing the "agent:" prefix (expected "agent:<agentId>:<rest>")',
        'x-openclaw-session-key',
        'invalid_session_key',
      ],
      [
        'a session of another agent',
        { 'x-openclaw-session-key': 'agent:expert:main' },
        'x-openclaw-session-key names a session of agent "expert", not of agent "main"',
        'x-openclaw-session-key',
        'session_agent_mismatch',
      ],
    ])('answers %s with 400 naming the header', async (_what, headers, message, param, code) => {
      expectError(await post(good, headers), 400, { message, param, code });
    });
  });

  describe('routes', () => {
    it('answers another method with 405 and Allow', async () => {
      const res = await request(gw.url).get('/v1/chat/completions').set('Authorization', `Bearer ${KEY}`);
      expectError(res, 405, { message: 'GET is not allowed here; use POST', code: 'method_not_allowed' });
      expect(res.headers.allow).toBe('POST');
      expect((await request(gw.url).delete('/v1/models').set('Authorization', `Bearer ${KEY}`)).headers.allow).toBe('GET');
    });

    it('answers an unknown path under /v1 with 404 in the same shape', async () => {
      const res = await request(gw.url).post('/v1/completions').set('Authorization', `Bearer ${KEY}`).send({});
      expectError(res, 404, { message: 'Invalid URL (POST /v1/completions)', code: 'not_found' });
    });
  });

  describe('hot settings', () => {
    const revision = async () => (await request(gw.url).get('/admin/config/status').expect(200)).body.revision as string;
    const apply = async (text: string) => {
      const before = await revision();
      await gw.writeConfig(text);
      await waitFor('the new config revision', async () => (await revision()) !== before, 10_000);
    };

    it('rate limits per key (429 rate_limit_exceeded), other keys unaffected', async () => {
      await apply(config({ limit: 2 }));
      const tight = () => request(gw.url).post('/v1/chat/completions').set('Authorization', `Bearer ${TIGHT}`).send(good);
      expect((await tight()).status).toBe(200);
      expect((await tight()).status).toBe(200);
      expectError(await tight(), 429, {
        message: 'Rate limit reached for key "tight": 2 requests per minute',
        code: 'rate_limit_exceeded',
      });
      const other = await request(gw.url).get('/v1/models').set('Authorization', `Bearer ${SPARE}`);
      expect(other.status).toBe(200);
    });

    it('answers 404 on every route while disabled, before the key is checked; the gateway stays up', async () => {
      await apply(config({ enabled: false }));
      const message = 'the OpenAI-compatible endpoint is not enabled (gateway.http.endpoints.chatCompletions.enabled)';
      expectError(await request(gw.url).post('/v1/chat/completions').send(good), 404, { message, code: 'not_found' });
      expectError(await request(gw.url).get('/v1/models').set('Authorization', `Bearer ${KEY}`), 404, { message });
      expect((await request(gw.url).get('/healthz')).status).toBe(200);

      await apply(config());
      const res = await post(good);
      expect(res.status).toBe(200);
    });
  });

  it('a client that sends only headers and then a body too large gets 413 without the gateway buffering it', async () => {
    const url = new URL('/v1/chat/completions', gw.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(url, {
        method: 'POST',
        headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', 'Content-Length': String(8 * 1024 * 1024) },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(status).toBe(413);
  });
});
