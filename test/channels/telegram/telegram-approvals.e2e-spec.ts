import request from 'supertest';
import { API_CLIENT } from '../../support/admin-client';
import { agentBrain } from '../../support/agent-brain';
import { FakeOpenAiServer } from '../../support/fake-openai-server';
import { FakeTelegramServer, type FakeBot } from '../../support/fake-telegram';
import { startTestGateway, type TestGateway } from '../../support/gateway-harness';

/**
 * Tool approvals from the chat the work came from (docs/approvals.md#from-a-chat), over the fake Bot API driven by the
 * bundled plugin's grammY: the request is posted in the chat; an approver the agent's `tools.approvers` names decides
 * it with /approve or /deny; anyone else's command is dropped without reaching the gate or the agent.
 */
describe('tool approvals in a Telegram chat', () => {
  let telegram: FakeTelegramServer;
  let model: FakeOpenAiServer;
  let gw: TestGateway;
  let bot: FakeBot;
  const ann = FakeTelegramServer.user('Ann');
  const bo = FakeTelegramServer.user('Bo');
  const texts = (chatId: number) => bot.botMessages(chatId).map((m) => m.text);
  const requestIn = async (chatId: number, count: number) => {
    const messages = await telegram.waitForMessages(
      bot,
      chatId,
      (m) => m.filter((x) => x.text.includes('waits for approval')).length >= count,
      30_000,
    );
    const asked = messages.filter((x) => x.text.includes('waits for approval'))[count - 1].text;
    return /\/approve (\S+)/.exec(asked)![1];
  };

  beforeAll(async () => {
    telegram = await new FakeTelegramServer().start();
    model = await new FakeOpenAiServer().start();
    model.always(
      agentBrain(model, ({ message, toolResult }) => {
        if (toolResult) return { text: `after the call: ${String(toolResult.status)}` };
        return message.includes('status') ? { tool: 'session_status', args: {} } : { text: `plain: ${message}` };
      }),
    );
    bot = telegram.addBot('ops_bot');
    gw = await startTestGateway(
      `{
  models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
  agents: { list: [{ id: "main", default: true, model: "fake/brain",
    tools: { requiresApproval: ["session_status"], approvers: ["telegram:${ann.id}"] } }] },
  channels: { telegram: { apiRoot: "${telegram.apiRoot}", botToken: "\${TG}", dmPolicy: "open", allowFrom: ["*"] } },
}`,
      { env: { TG: bot.token } },
    );
  });
  afterAll(async () => {
    await gw?.stop();
    await model?.close();
    await telegram?.close();
  });

  it('posts the request in the chat, and an approver’s /approve there lets the tool run', async () => {
    telegram.dm(bot, ann, 'what is my status?');
    const id = await requestIn(ann.id, 1);
    expect(texts(ann.id)[0]).toMatch(
      new RegExp(
        `^Agent main wants to call session_status \\{\\} and waits for approval\\. An approver replies /approve ${id} or /deny ${id} <reason>\\.`,
      ),
    );
    const command = telegram.dm(bot, ann, `/approve ${id} looks fine`);
    await telegram.waitForMessages(bot, ann.id, (m) => m.some((x) => x.text === 'after the call: ok'), 30_000);
    const answer = bot.botMessages(ann.id).find((m) => m.text.startsWith('Approved:'))!;
    expect(answer.text).toBe(`Approved: session_status for agent main (approval ${id}).`);
    expect(answer.replyTo).toBe(command.message_id);
    await telegram.waitForMessages(bot, ann.id, (m) => m.some((x) => x.text.startsWith(`Approval ${id}`)), 30_000);
    expect(texts(ann.id)).toContain(`Approval ${id} for session_status: approved, by telegram:${ann.id} (looks fine).`);
    const record = (await request(gw.url).get(`/admin/approvals/${id}`).set(API_CLIENT).expect(200)).body;
    expect(record).toMatchObject({ state: 'approved', decidedBy: `telegram:${ann.id}`, channel: 'telegram' });
  });

  it('drops a command from a sender who is no approver: nothing decided, nothing sent to the agent; /deny from the approver', async () => {
    telegram.dm(bot, ann, 'status again');
    const id = await requestIn(ann.id, 2);
    const asked = model.requests.length;
    telegram.dm(bot, bo, `/approve ${id}`);
    // Bo's command is dropped: the approval stays pending, Bo gets no answer, the model is not asked.
    telegram.dm(bot, ann, `/deny ${id} not now`);
    await telegram.waitForMessages(bot, ann.id, (m) => m.some((x) => x.text === 'after the call: forbidden'), 30_000);
    expect(texts(ann.id)).toContain(`Denied: session_status for agent main (approval ${id}).`);
    expect(texts(bo.id)).toEqual([]);
    expect(model.requests.length).toBe(asked + 1);
    const record = (await request(gw.url).get(`/admin/approvals/${id}`).set(API_CLIENT).expect(200)).body;
    expect(record).toMatchObject({ state: 'denied', decidedBy: `telegram:${ann.id}`, note: 'not now' });
  });

  it('answers an approver’s command for an unknown or decided approval with what is wrong', async () => {
    telegram.dm(bot, ann, '/approve no-such-approval');
    await telegram.waitForMessages(bot, ann.id, (m) => m.some((x) => x.text === 'no approval with id no-such-approval'), 30_000);
    const [decided] = (await request(gw.url).get('/admin/approvals?state=denied').set(API_CLIENT).expect(200)).body.items;
    telegram.dm(bot, ann, `/approve ${decided.id}`);
    await telegram.waitForMessages(
      bot,
      ann.id,
      (m) => m.some((x) => x.text.startsWith(`approval ${decided.id} is already denied`)),
      30_000,
    );
  });

  it('after a restart, the message is handed in again and asks anew; the request its stopped run left resumes nothing', async () => {
    telegram.dm(bot, ann, 'status before the restart');
    const left = await requestIn(ann.id, 3);
    gw = await gw.restart();
    // The plugin kept the unanswered message and hands it in again: its run asks again, in the chat.
    const again = await requestIn(ann.id, 4);
    expect(again).not.toBe(left);
    const asked = model.requests.length;
    await request(gw.url).post(`/admin/approvals/${left}/approve`).set(API_CLIENT).send({}).expect(200);
    telegram.dm(bot, ann, `/approve ${again}`);
    await telegram.waitForMessages(bot, ann.id, (m) => m.filter((x) => x.text === 'after the call: ok').length === 2, 30_000);
    // Only the replayed run went on: one more model call, not two.
    expect(model.requests.length).toBe(asked + 1);
  }, 90_000);
});
