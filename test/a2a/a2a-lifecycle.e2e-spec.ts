import request from 'supertest';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, waitFor } from '../support/gateway-harness';

/**
 * The A2A channel at the edges of the gateway's life and access control: shutdown with a caller still
 * blocked on a task, and admin authentication next to peer authentication.
 */

describe('A2A channel shutdown (e2e)', () => {
  it('releases a blocked caller with the current task state, then closes', async () => {
    const model = await new FakeOpenAiServer().start();
    model.always(model.stall());
    const token = 'hermes-token-shutdown-001';
    const gw = await startTestGateway(`{
      models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}", timeoutMs: 600000 } } },
      agents: { list: [{ id: "slow", model: "fake/stall" }] },
      channels: { a2a: { enabled: true, replyTimeoutMs: 600000, peers: { hermes: { token: "${token}" } } } },
    }`);
    try {
      const pending = request(gw.url)
        .post('/a2a/v1')
        .set('Authorization', `Bearer ${token}`)
        .send({
          jsonrpc: '2.0',
          id: 'blocked',
          method: 'SendMessage',
          params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'wait for me' }] } },
        })
        .then((r) => r);
      await waitFor('the run to reach the model', async () => model.requests.length === 1);
      const started = Date.now();
      const closing = gw.stop();
      const res = await pending;
      expect(Date.now() - started).toBeLessThan(5000);
      expect(res.body.id).toBe('blocked');
      expect(res.body.result.task.status.state).toBe('TASK_STATE_WORKING');
      await closing;
    } finally {
      await model.close();
    }
  }, 30_000);
});

describe('A2A channel with admin authentication configured (e2e)', () => {
  it('admin views need a viewer token; the card and the peer endpoint stay as they are', async () => {
    const viewer = 'viewer-token-a2a-0c8b6a4e2f1d';
    const peer = 'hermes-token-with-admin-auth';
    const gw = await startTestGateway(`{
      agents: { list: [{ id: "main" }] },
      gateway: { admin: { tokens: [{ name: "dash", token: "${viewer}", role: "viewer" }] } },
      channels: { a2a: { enabled: true, peers: { hermes: { token: "${peer}" } } } },
    }`);
    try {
      await request(gw.url).get('/admin/a2a/tasks').expect(401);
      await request(gw.url).get('/admin/a2a/peers').set('Authorization', `Bearer ${peer}`).expect(401);
      const sent = await request(gw.url)
        .post('/a2a/v1')
        .set('Authorization', `Bearer ${peer}`)
        .send({
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
        })
        .expect(200);
      const id = sent.body.result.task.id;
      const tasks = await request(gw.url).get('/admin/a2a/tasks').set('Authorization', `Bearer ${viewer}`).expect(200);
      expect(tasks.body.tasks.map((t: { id: string }) => t.id)).toEqual([id]);
      await request(gw.url).get(`/admin/a2a/tasks/${id}`).set('Authorization', `Bearer ${viewer}`).expect(200);
      await request(gw.url).get('/admin/a2a/peers').set('Authorization', `Bearer ${viewer}`).expect(200);
      await request(gw.url).get('/.well-known/agent-card.json').expect(200);
      // An admin token is not a peer token.
      await request(gw.url).post('/a2a/v1').set('Authorization', `Bearer ${viewer}`).send({}).expect(401);
    } finally {
      await gw.stop();
    }
  });
});
