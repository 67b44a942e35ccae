import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import type { ChannelInboundMessage, ChannelInboundOutcome } from '../../src/plugin-sdk';
import { API_CLIENT } from '../support/admin-client';
import { CHAT_CODE, CHAT_MANIFEST, chatPlatform } from '../support/chat-channel-plugin';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { writePluginDir } from '../support/plugin-dirs';
import { CliBuild, runCli, transpileCli } from '../fixtures/cli-runner';

/**
 * DM pairing of a chat channel (docs/channels.md#pairing), driven through a test channel plugin: an unknown sender
 * gets a one-time code, at most 3 wait per channel, the operator approves one with `clawgate pairing approve` (a real
 * CLI process against the running gateway) and the sender's next message reaches the agent. Then the bad inputs of
 * the endpoints and of the channel's common config keys.
 */

const platform = chatPlatform();
const CODE = /code is ([ACDEFGHJKMNPQRTUVWXY34679]{8})\b/;

function configText(model: string, chat = '{ groups: { "*": { requireMention: true } } }'): string {
  return `{
  gateway: { reload: { mode: "off" } },
  models: { providers: { fake: { api: "openai-chat", baseUrl: "${model}" } } },
  agents: { list: [{ id: "main", model: "fake/gpt-test" }] },
  channels: { chat: ${chat} },
  plugins: { load: { paths: ["./plugins"] } },
}`;
}

const dm = (senderId: string, text = 'hello'): ChannelInboundMessage => ({
  accountId: 'default',
  peer: { kind: 'dm', id: `chat-${senderId}` },
  sender: { id: senderId, name: `Person ${senderId}` },
  messageId: `m-${Math.random()}`,
  text,
  mentionsBot: false,
});

describe('DM pairing of a chat channel (e2e)', () => {
  let model: FakeOpenAiServer;
  let gw: TestGateway;
  let cli: CliBuild;

  const inbound = (message: ChannelInboundMessage): Promise<ChannelInboundOutcome> => platform.ctx!.inbound(message);
  const codeOf = (outcome: ChannelInboundOutcome): string => {
    expect(outcome.kind).toBe('pairing');
    const match = CODE.exec((outcome as { text: string }).text);
    expect(match).not.toBeNull();
    return match![1];
  };
  const clawgate = (...args: string[]) => runCli(cli.cliJs, args, { HOME: gw.dir, CLAWGATE_URL: gw.url, CLAWGATE_LOG_LEVEL: 'silent' });
  const reload = async (text: string) => {
    await gw.writeConfig(text);
    const res = await request(gw.url).post('/admin/config/reload').set(API_CLIENT);
    return { ...(res.body as { status?: string; errors?: Array<{ path: string; message: string }> }), code: res.status };
  };

  beforeAll(async () => {
    [cli, model] = await Promise.all([transpileCli(), new FakeOpenAiServer().start()]);
    model.always(model.text('Hello, paired friend.'));
    gw = await startTestGateway(configText(model.baseUrl), {
      beforeStart: async (stateDir) => {
        await writePluginDir(path.join(path.dirname(stateDir), 'plugins', 'chatkit'), {
          manifest: CHAT_MANIFEST,
          files: { 'index.js': CHAT_CODE },
        });
      },
    });
    const end = Date.now() + 15_000;
    while (!platform.ctx && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  }, 180_000);
  afterAll(async () => {
    await gw?.stop();
    await model?.close();
    await cli?.remove();
  });

  it('an unknown sender gets a code (the same one when asking again); at most 3 wait; the 4th is ignored', async () => {
    const first = codeOf(await inbound(dm('ada')));
    expect(codeOf(await inbound(dm('ada', 'hello again')))).toBe(first);
    codeOf(await inbound(dm('bob')));
    codeOf(await inbound(dm('cy')));
    expect(await inbound(dm('dee'))).toEqual({
      kind: 'ignored',
      reason: 'pairing: 3 codes of channel chat are already waiting for approval',
    });
    expect(model.requests).toHaveLength(0);

    const file = path.join(gw.stateDir, 'pairing', 'chat.json');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect((await fs.stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    const listed = (await request(gw.url).get('/admin/pairing').expect(200)).body;
    expect(listed.channels).toHaveLength(1);
    expect(listed.channels[0].pending.map((p: { senderId: string }) => p.senderId)).toEqual(['ada', 'bob', 'cy']);
  });

  it('approved with `clawgate pairing approve`, the sender’s next DM reaches the agent and the reply streams', async () => {
    const list = await clawgate('pairing', 'list', 'chat', '--json');
    expect(list.code).toBe(0);
    const pending = JSON.parse(list.stdout).channels[0].pending as Array<{ code: string; senderId: string }>;
    const ada = pending.find((p) => p.senderId === 'ada')!;

    const approve = await clawgate('pairing', 'approve', 'chat', ada.code.toLowerCase());
    expect(approve.stderr).toBe('');
    expect(approve.code).toBe(0);
    expect(approve.stdout).toContain('approved Person ada (ada) on chat');

    const outcome = await inbound(dm('ada', 'now may I?'));
    expect(outcome).toMatchObject({ kind: 'reply', agentId: 'main' });
    const events = [];
    for await (const event of (outcome as Extract<ChannelInboundOutcome, { kind: 'reply' }>).events) events.push(event);
    expect(events[events.length - 1]).toEqual({ type: 'final', text: 'Hello, paired friend.' });

    // The approval is kept: a restarted gateway still knows ada.
    const file = JSON.parse(await fs.readFile(path.join(gw.stateDir, 'pairing', 'chat.json'), 'utf8'));
    expect(file.approved).toEqual([expect.objectContaining({ senderId: 'ada', accountId: 'default' })]);
  });

  it('deny drops a code; deciding it again is a 404 the CLI reports (exit 1); a freed slot serves the next sender', async () => {
    const pending = (await request(gw.url).get('/admin/pairing?channel=chat').expect(200)).body.channels[0].pending;
    const bob = pending.find((p: { senderId: string }) => p.senderId === 'bob');
    const deny = await clawgate('pairing', 'deny', 'chat', bob.code, '--json');
    expect(deny.code).toBe(0);
    expect(JSON.parse(deny.stdout)).toEqual({
      channel: 'chat',
      code: bob.code,
      decision: 'denied',
      senderId: 'bob',
      senderName: 'Person bob',
    });
    const again = await clawgate('pairing', 'deny', 'chat', bob.code);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`no pending pairing code ${bob.code} for channel chat`);
    codeOf(await inbound(dm('dee')));
  });

  it('bad input to the pairing endpoints is refused, naming what was wrong', async () => {
    const badCode = await request(gw.url).post('/admin/pairing/chat/not-a-code!/approve').set(API_CLIENT).expect(400);
    expect(badCode.body.detail).toContain('is not a pairing code');
    const badChannel = await request(gw.url).post('/admin/pairing/chta/ACDEFGHJ/approve').set(API_CLIENT).expect(404);
    expect(badChannel.body.detail).toBe('no chat channel "chta" (did you mean "chat"?); the chat channels are chat');
    await request(gw.url).post('/admin/pairing/chat/ACDEFGHJ/approve').set(API_CLIENT).expect(404);
    expect((await request(gw.url).get('/admin/pairing?channel=nope').expect(404)).body.detail).toContain('no chat channel "nope"');
    expect((await request(gw.url).get('/admin/pairing?channel=chat&channel=x').expect(400)).body.detail).toBe(
      'channel: give one non-empty channel id',
    );
  });

  it('bad values of the common channel keys are config errors with the dotted path; the last good config serves on', async () => {
    const open = await reload(configText(model.baseUrl, '{ dmPolicy: "open" }'));
    expect(open.code).toBe(422);
    expect(open.errors).toEqual([
      expect.objectContaining({
        path: 'channels.chat.allowFrom',
        message: expect.stringContaining('dmPolicy "open" requires allowFrom: ["*"]'),
      }),
    ]);
    const accountOpen = await reload(configText(model.baseUrl, '{ accounts: { work: { dmPolicy: "open", allowFrom: ["ada"] } } }'));
    expect(accountOpen.errors?.map((e) => e.path)).toEqual(['channels.chat.accounts.work.allowFrom']);
    const typo = await reload(configText(model.baseUrl, '{ dmPolicyy: "pairing" }'));
    expect(typo.errors?.[0]).toMatchObject({
      path: 'channels.chat.dmPolicyy',
      message: expect.stringContaining('did you mean "dmPolicy"'),
    });
    const badEnum = await reload(configText(model.baseUrl, '{ groupPolicy: "everyone" }'));
    expect(badEnum.errors?.[0].path).toBe('channels.chat.groupPolicy');
    const mention = await reload(configText(model.baseUrl, '{ groups: { "*": { requireMention: "yes" } } }'));
    expect(mention.errors?.[0].path).toBe('channels.chat.groups["*"].requireMention');

    // Open to anyone, said explicitly: valid, and a stranger is answered without a code.
    expect((await reload(configText(model.baseUrl, '{ dmPolicy: "open", allowFrom: ["*"] }'))).status).toBe('applied');
    const end = Date.now() + 10_000;
    while (platform.ctx!.config<{ dmPolicy?: string }>().dmPolicy !== 'open' && Date.now() < end)
      await new Promise((r) => setTimeout(r, 50));
    expect(await inbound(dm('stranger'))).toMatchObject({ kind: 'reply' });
  });

  it('a mediaMaxMb that is not a positive number of MB is a config error with its path, at the section and an account', async () => {
    const zero = await reload(configText(model.baseUrl, '{ mediaMaxMb: 0 }'));
    expect(zero.code).toBe(422);
    expect(zero.errors?.map((e) => e.path)).toEqual(['channels.chat.mediaMaxMb']);
    const text = await reload(configText(model.baseUrl, '{ accounts: { work: { mediaMaxMb: "20MB" } } }'));
    expect(text.errors?.map((e) => e.path)).toEqual(['channels.chat.accounts.work.mediaMaxMb']);
    expect((await reload(configText(model.baseUrl, '{ mediaMaxMb: 2.5 }'))).status).toBe('applied');
  });
});
