import request from 'supertest';
import { API_CLIENT } from '../../support/admin-client';
import { FakeOpenAiServer, tokenText } from '../../support/fake-openai-server';
import { FakeSlackServer, slackSignature, type FakeSlackApp, type SlackConversation } from '../../support/fake-slack';
import { startTestGateway, type TestGateway } from '../../support/gateway-harness';
import { CliBuild, runCli, transpileCli } from '../../fixtures/cli-runner';

/**
 * The whole gateway with the bundled Slack plugin over the fake Slack: the section loads the plugin, an unknown DM
 * gets a pairing code, `clawgate pairing approve` lets the sender reach the bound agent (a scripted model
 * streaming) and the reply arrives by chat.update; channels need a mention and are answered in the thread; three
 * accounts (two in Socket Mode, one over signed HTTP requests) reach their own agents exactly as
 * `/admin/routing/resolve` says; a 429 is waited out; a redelivered event is answered once.
 */
describe('slack channel in the gateway', () => {
  let slack: FakeSlackServer;
  let model: FakeOpenAiServer;
  let gw: TestGateway;
  let cli: CliBuild;
  let main: FakeSlackApp;
  let work: FakeSlackApp;
  let hook: FakeSlackApp;
  let general: SlackConversation;
  const TOKENS = 8;

  beforeAll(async () => {
    cli = await transpileCli();
    slack = await new FakeSlackServer({ ackTimeoutMs: 1000 }).start();
    model = await new FakeOpenAiServer().start();
    model.always(model.tokens(TOKENS, 250)); // slow enough that the reply is posted before it is whole, so updates follow
    main = slack.addApp('main');
    work = slack.addApp('work');
    hook = slack.addApp('hook');
    general = slack.addChannel(main, 'general');
    gw = await startTestGateway(
      `{
  gateway: { reload: { mode: "off" } },
  models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
  agents: {
    list: [
      { id: "main", model: "fake/gpt-test", default: true },
      { id: "work", model: "fake/gpt-test" },
      { id: "team", model: "fake/gpt-test" },
    ],
  },
  bindings: [
    { agentId: "work", match: { channel: "slack", accountId: "work" } },
    { agentId: "team", match: { channel: "slack", accountId: "hook", teamId: "${slack.teamId}" } },
  ],
  channels: {
    slack: {
      apiUrl: "${slack.apiUrl}",
      botToken: "\${SL_MAIN_BOT}",
      appToken: "\${SL_MAIN_APP}",
      channels: { "${general.id}": { requireMention: true } },
      accounts: {
        work: { botToken: "\${SL_WORK_BOT}", appToken: "\${SL_WORK_APP}", dmPolicy: "open", allowFrom: ["*"] },
        hook: { mode: "http", botToken: "\${SL_HOOK_BOT}", signingSecret: "\${SL_HOOK_SECRET}", dmPolicy: "open", allowFrom: ["*"] },
      },
    },
  },
}`,
      {
        env: {
          SL_MAIN_BOT: main.botToken,
          SL_MAIN_APP: main.appToken,
          SL_WORK_BOT: work.botToken,
          SL_WORK_APP: work.appToken,
          SL_HOOK_BOT: hook.botToken,
          SL_HOOK_SECRET: hook.signingSecret,
        },
      },
    );
    slack.useEventsUrl(hook, `${gw.url}/plugins/slack/events/hook`);
    await waitForAccounts(['default', 'hook', 'work']);
  }, 180_000);
  afterAll(async () => {
    await gw?.stop();
    await model?.close();
    await slack?.close();
  });

  async function accounts(): Promise<{ accountId: string; state: string; error?: string }[]> {
    const body = (await request(gw.url).get('/admin/channels').set(API_CLIENT).expect(200)).body as {
      channels: { id: string; accounts: { accountId: string; state: string; error?: string }[] }[];
    };
    return body.channels.find((c) => c.id === 'slack')?.accounts ?? [];
  }

  async function waitForAccounts(ids: string[]): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const states = (await accounts()).filter((a) => a.state === 'connected').map((a) => a.accountId);
      if (ids.every((id) => states.includes(id))) return;
      if (Date.now() > deadline) throw new Error(`accounts not connected: ${JSON.stringify(await accounts())}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const resolve = async (message: Record<string, unknown>): Promise<string> =>
    ((await request(gw.url).post('/admin/routing/resolve').set(API_CLIENT).send(message).expect(200)).body as { agentId: string }).agentId;

  it('answers an unknown DM with a pairing code; after `clawgate pairing approve` the agent replies by chat.update', async () => {
    const ann = slack.user('Ann');
    slack.dm(main, ann, 'hello');
    const [pairing] = await slack.waitForMessages(main, ann.id, (m) => m.length === 1, 30_000);
    const code = /code is ([A-Z0-9]{8})/.exec(pairing.text)?.[1];
    expect(code).toBeDefined();
    const approve = await runCli(cli.cliJs, ['pairing', 'approve', 'slack', code!], {
      HOME: gw.dir,
      CLAWGATE_URL: gw.url,
      CLAWGATE_LOG_LEVEL: 'silent',
    });
    expect(approve.stderr).toBe('');
    expect(approve.code).toBe(0);

    const asked = slack.dm(main, ann, 'now?');
    const messages = await slack.waitForMessages(main, ann.id, (m) => m[1]?.text === tokenText(TOKENS), 30_000);
    expect(messages[1].versions.length).toBeGreaterThan(1);
    expect(messages[1].threadTs).toBeUndefined();
    expect(slack.calls(main, 'chat.update').length).toBeGreaterThan(0);
    // The routing admin view agrees: Ann's DM on the default account is the default agent's.
    expect(await resolve({ channel: 'slack', peer: { kind: 'direct', id: ann.id }, teamId: slack.teamId })).toBe('main');
    const sessions = JSON.stringify(
      (await request(gw.url).get('/admin/sessions').query({ agentId: 'main' }).set(API_CLIENT).expect(200)).body,
    );
    expect(sessions).toContain('agent:main:');

    // A redelivery of the answered event (an acknowledgement Slack did not get) is not answered again.
    const eventId = main.envelopes.find((e) => e.payload.event.ts === asked.ts)!.payload.event_id;
    const again = slack.redeliver(main, eventId);
    await slack.waitFor(main, () => main.acked.has(again.envelope_id), 10_000);
    slack.dm(main, ann, 'still there?');
    await slack.waitForMessages(main, ann.id, (m) => m.length === 3 && m[2].text === tokenText(TOKENS), 30_000);
    expect(main.botMessages(ann.id)).toHaveLength(3);
  }, 90_000);

  it('ignores a channel message without a mention and answers one with it in its thread', async () => {
    const bo = slack.user('Bo');
    slack.channelMessage(main, general, bo, 'just chatting');
    const asked = slack.channelMessage(main, general, bo, 'help please', { mention: true });
    const [reply] = await slack.waitForMessages(main, general.id, (m) => m[0]?.text === tokenText(TOKENS), 30_000);
    expect(reply.threadTs).toBe(asked.ts);
    expect(main.botMessages(general.id)).toHaveLength(1);
    expect(await resolve({ channel: 'slack', peer: { kind: 'channel', id: general.id }, teamId: slack.teamId })).toBe('main');
  });

  it('routes the second account to its agent (account tier) and the HTTP one to its team binding, as resolve says', async () => {
    const cy = slack.user('Cy');
    slack.dm(work, cy, 'work question');
    slack.dm(hook, cy, 'team question');
    await slack.waitForMessages(work, cy.id, (m) => m[0]?.text === tokenText(TOKENS), 30_000);
    await slack.waitForMessages(hook, cy.id, (m) => m[0]?.text === tokenText(TOKENS), 30_000);
    const keys = async (agentId: string) =>
      JSON.stringify((await request(gw.url).get('/admin/sessions').query({ agentId }).set(API_CLIENT).expect(200)).body);
    expect(await keys('work')).toContain('agent:work:');
    expect(await keys('team')).toContain('agent:team:');
    expect(await resolve({ channel: 'slack', accountId: 'work', peer: { kind: 'direct', id: cy.id }, teamId: slack.teamId })).toBe('work');
    expect(await resolve({ channel: 'slack', accountId: 'hook', peer: { kind: 'direct', id: cy.id }, teamId: slack.teamId })).toBe('team');
  });

  it('waits out a 429 for its Retry-After and delivers the reply', async () => {
    const dee = slack.user('Dee');
    work.failNext('chat.postMessage', 1, 1);
    slack.dm(work, dee, 'busy?');
    await slack.waitForMessages(work, dee.id, (m) => m[0]?.text === tokenText(TOKENS), 30_000);
    expect(
      slack
        .calls(work, 'chat.postMessage')
        .filter((c) => c.params.channel === work.conversationId(dee.id))
        .map((c) => c.status),
    ).toEqual([429, 200]);
  });

  it('refuses an Events API request whose signature does not verify, and answers a signed url_verification', async () => {
    const body = JSON.stringify({ type: 'url_verification', challenge: 'abc123', token: 'x' });
    const ts = String(Math.floor(Date.now() / 1000));
    const url = '/plugins/slack/events/hook';
    const bad = await request(gw.url)
      .post(url)
      .set('content-type', 'application/json')
      .set('x-slack-request-timestamp', ts)
      .set('x-slack-signature', slackSignature('not-the-secret', ts, body))
      .send(body);
    expect(bad.status).toBe(401);
    expect(JSON.stringify(bad.body)).not.toContain(hook.signingSecret);
    const old = String(Number(ts) - 600);
    await request(gw.url)
      .post(url)
      .set('content-type', 'application/json')
      .set('x-slack-request-timestamp', old)
      .set('x-slack-signature', slackSignature(hook.signingSecret, old, body))
      .send(body)
      .expect(401);
    const good = await request(gw.url)
      .post(url)
      .set('content-type', 'application/json')
      .set('x-slack-request-timestamp', ts)
      .set('x-slack-signature', slackSignature(hook.signingSecret, ts, body))
      .send(body)
      .expect(200);
    expect(good.body).toEqual({ challenge: 'abc123' });
  });
});
