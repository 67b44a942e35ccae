import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * The README's "A first conversation", on the demo config `npm start` runs with the demo's environment: the http
 * channel, the A2A SDK snippet (the README shows examples/hello-a2a.mjs verbatim), and the OpenAI-compatible
 * endpoint switched on by the README's merge patch.
 */

// eslint-disable-next-line @typescript-eslint/no-require-imports
const demo = require('../../scripts/demo-gateway.js') as { root: string; demoEnv(): NodeJS.ProcessEnv };
const README = path.join(demo.root, 'README.md');
const SNIPPET = path.join(demo.root, 'examples', 'hello-a2a.mjs');

describe("the README's first conversation with the npm start demo", () => {
  let gw: TestGateway;
  let readme: string;
  beforeAll(async () => {
    readme = await fs.readFile(README, 'utf8');
    const env = demo.demoEnv();
    gw = await startTestGateway(await fs.readFile(path.join(demo.root, 'config', 'openclaw.json'), 'utf8'), {
      env: {
        CLAWGATE_DEMO_PEER_TOKEN: env.CLAWGATE_DEMO_PEER_TOKEN,
        CLAWGATE_DEMO_HTTP_TOKEN: env.CLAWGATE_DEMO_HTTP_TOKEN,
        CLAWGATE_DEMO_OPENAI_KEY: env.CLAWGATE_DEMO_OPENAI_KEY,
      },
    });
  }, 120_000);
  afterAll(async () => {
    await gw?.stop();
  });

  it('answers over the http channel with the demo token the README names', async () => {
    expect(readme).toContain("-H 'Authorization: Bearer demo-http-token'");
    const res = await request(gw.url)
      .post('/channels/http/messages')
      .set('Authorization', 'Bearer demo-http-token')
      .send({ peer: { kind: 'direct', id: 'me' }, text: 'hello' })
      .expect(200);
    expect(res.body).toMatchObject({ sessionKey: 'agent:support:http:direct:me', agentId: 'support', reply: '[support] hello' });
  });

  it('runs the @a2a-js/sdk snippet the README shows, which gets "[main] hello"', async () => {
    const snippet = await fs.readFile(SNIPPET, 'utf8');
    expect(readme).toContain(`\`\`\`js\n${snippet}\`\`\``);
    const run = await promisify(execFile)(process.execPath, [SNIPPET], {
      cwd: demo.root,
      env: { PATH: process.env.PATH, CLAWGATE_URL: gw.url },
      timeout: 60_000,
    });
    expect(run.stdout).toBe('[main] hello\n');
  }, 90_000);

  it("switches the OpenAI-compatible endpoint on with the README's merge patch, then answers with the demo key", async () => {
    const patch =
      /curl -s -X PATCH localhost:18789\/admin\/config -H 'If-Match: \*' -H 'Content-Type: application\/merge-patch\+json' \\\n {2}-d '([^']+)'/.exec(
        readme,
      )?.[1];
    expect(patch).toBeDefined();
    const before = await request(gw.url)
      .post('/v1/chat/completions')
      .set('Authorization', 'Bearer demo-openai-key')
      .send({ model: 'agent:expert', messages: [{ role: 'user', content: 'hello' }] });
    expect(before.status).toBe(404);
    await request(gw.url)
      .patch('/admin/config')
      .set('If-Match', '*')
      .set('Content-Type', 'application/merge-patch+json')
      .send(patch)
      .expect(200);
    const res = await request(gw.url)
      .post('/v1/chat/completions')
      .set('Authorization', 'Bearer demo-openai-key')
      .send({ model: 'agent:expert', messages: [{ role: 'user', content: 'hello' }] })
      .expect(200);
    expect(res.body.choices[0].message).toMatchObject({ role: 'assistant', content: '[expert] hello' });
    // The key stays a reference in the file the patch wrote.
    expect(await fs.readFile(gw.configPath, 'utf8')).toContain('${CLAWGATE_DEMO_OPENAI_KEY}');
  });
});
