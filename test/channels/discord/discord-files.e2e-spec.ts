import '../../support/captured-logs';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import type { ChannelDefinition } from '../../../src/plugin-sdk';
import { discordChannel } from '../../../src/bundled-plugins/discord/discord-channel';
import { API_CLIENT } from '../../support/admin-client';
import { captureLogLines, type CapturedLogs } from '../../support/captured-logs';
import { FakeDiscordServer, type FakeDiscordBot } from '../../support/fake-discord';
import { FakeOpenAiServer } from '../../support/fake-openai-server';
import { startTestGateway, type TestGateway } from '../../support/gateway-harness';
import { ScriptedChannelContext as ScriptedContext } from '../../support/scripted-channel-context';

class ScriptedChannelContext extends ScriptedContext {
  override readonly channelId = 'discord';
}

jest.setTimeout(120_000); // a shared machine under load: the gateway and the fakes are real servers

/**
 * Files in Discord chats: a message's `attachments` fetched from their CDN URL through the whole gateway (within
 * `mediaMaxMb`), and files the channel's send uploads as multipart `files[n]` with `payload_json` (discord.js).
 */
describe('discord files in the gateway', () => {
  let discord: FakeDiscordServer;
  let model: FakeOpenAiServer;
  let gw: TestGateway;
  let bot: FakeDiscordBot;
  let logs: CapturedLogs;

  beforeAll(async () => {
    logs = captureLogLines();
    [discord, model] = await Promise.all([new FakeDiscordServer().start(), new FakeOpenAiServer().start()]);
    model.always(model.text('got it'));
    bot = discord.addBot('Files');
    gw = await startTestGateway(
      `{
  gateway: { reload: { mode: "off" } },
  models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
  agents: { list: [{ id: "main", model: "fake/gpt-test", default: true }] },
  channels: { discord: { api: "${discord.api}", token: "\${DC_FILES}", dmPolicy: "open", allowFrom: ["*"], mediaMaxMb: 0.5 } },
}`,
      { env: { DC_FILES: bot.token } },
    );
    for (let i = 0; i < 400; i++) {
      const body = (await request(gw.url).get('/admin/channels').set(API_CLIENT)).body as {
        channels?: { id: string; accounts: { state: string }[] }[];
      };
      if (body.channels?.find((c) => c.id === 'discord')?.accounts[0]?.state === 'connected') break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 180_000);
  afterAll(async () => {
    await gw?.stop();
    await Promise.all([model?.close(), discord?.close()]);
    logs?.stop();
  });

  const lastPrompt = (): string => {
    const messages = (model.requests.at(-1)?.body?.messages ?? []) as { role: string; content: string }[];
    return messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  };

  it('gives the agent an attached JSON inline and stores an image, fetched from the CDN URL', async () => {
    const ann = FakeDiscordServer.user('Ann');
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    discord.dmWithFiles(bot, ann, '', [
      { name: 'config.json', contentType: 'application/json', data: Buffer.from('{"a":1}') },
      { name: 'shot.png', contentType: 'image/png', data: png },
    ]);
    const dm = discord.dmChannelId(bot, ann);
    await discord.waitForMessages(bot, dm, (m) => m[0]?.content === 'got it', 30_000);
    expect(lastPrompt()).toMatch(/^Files sent with this message by the chat user\./);
    expect(lastPrompt()).toContain('[Attachment 1 of 2 "config.json" (application/json, 7 bytes):]\n```\n{"a":1}\n```');
    const stored = /stored at (agents\/main\/attachments\/discord-[0-9a-f-]+\/1-shot\.png)/.exec(lastPrompt());
    expect(stored).not.toBeNull();
    expect(await fs.readFile(path.join(gw.stateDir, stored![1]))).toEqual(png);
  });

  it('refuses an attachment over mediaMaxMb, naming the limit, and one the CDN no longer serves', async () => {
    const bo = FakeDiscordServer.user('Bo');
    const asked = model.requests.length;
    discord.dmWithFiles(bot, bo, 'see', [{ name: 'big.zip', contentType: 'application/zip', data: Buffer.alloc(600 * 1024) }]);
    const dm = discord.dmChannelId(bot, bo);
    const [refusal] = await discord.waitForMessages(bot, dm, (m) => m.length === 1, 30_000);
    expect(refusal.content).toBe('The file "big.zip" is 0.59 MB; files up to 0.5 MB are accepted here. Your message was not passed on.');

    const gone = discord.dmWithFiles(bot, bo, 'again', [{ name: 'gone.txt', contentType: 'text/plain', data: Buffer.from('x') }]);
    discord.removeAttachment(gone.attachments[0]);
    const messages = await discord.waitForMessages(bot, dm, (m) => m.length === 2, 30_000);
    expect(messages[1].content).toBe(
      'The file "gone.txt" could not be downloaded (Discord\'s CDN answered the download with HTTP 404). ' +
        'Your message was not passed on; please send it again.',
    );
    expect(model.requests.length).toBe(asked);
    expect(JSON.stringify(logs.lines)).not.toContain(bot.token);
  });
});

describe('discord channel plugin sending files', () => {
  let discord: FakeDiscordServer;
  let channel: ChannelDefinition | undefined;

  beforeEach(async () => {
    discord = await new FakeDiscordServer().start();
  });
  afterEach(async () => {
    await channel?.stop?.();
    channel = undefined;
    await discord.close();
  });

  it('uploads the files as attachments of one message, with their exact bytes, after the text', async () => {
    const bot = discord.addBot('Uploader');
    const ann = FakeDiscordServer.user('Ann');
    discord.dm(bot, ann, 'hello'); // the DM channel exists, as after a conversation
    const context = new ScriptedChannelContext({ api: discord.api, token: bot.token }, () => ({ kind: 'ignored', reason: 'test' }));
    channel = discordChannel();
    await channel.start(context);
    for (let i = 0; i < 200 && context.lastHealth('default')?.state !== 'connected'; i++) await new Promise((r) => setTimeout(r, 50));
    const csv = Buffer.from('a,b\r\n1,2\r\n--\r\n');
    const bin = Buffer.from([0, 0xff, 0x0d, 0x0a, 0x2d, 0x2d, 0x42]);
    const receipt = await channel.send({
      sessionKey: 'agent:main:main',
      accountId: 'default',
      peer: { kind: 'dm', id: ann.id },
      text: 'the results',
      files: [
        { name: 'r.csv', mimeType: 'text/csv', data: csv },
        { name: 'blob.bin', mimeType: 'application/octet-stream', data: bin },
      ],
    });
    expect(receipt.status).toBe('delivered');
    const sent = discord.botMessages(bot, discord.dmChannelId(bot, ann));
    expect(sent.map((m) => m.content)).toEqual(['the results', '']);
    const attachments = sent[1].attachments ?? [];
    expect(attachments.map((a) => a.filename)).toEqual(['r.csv', 'blob.bin']);
    expect(discord.attachmentBytes(attachments[0])).toEqual(csv);
    expect(discord.attachmentBytes(attachments[1])).toEqual(bin);
  });
});
