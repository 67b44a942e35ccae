import '../../support/captured-logs';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import type { ChannelDefinition } from '../../../src/plugin-sdk';
import { slackChannel } from '../../../src/bundled-plugins/slack/slack-channel';
import { API_CLIENT } from '../../support/admin-client';
import { captureLogLines, type CapturedLogs } from '../../support/captured-logs';
import { FakeOpenAiServer } from '../../support/fake-openai-server';
import { FakeSlackServer, type FakeSlackApp } from '../../support/fake-slack';
import { startTestGateway, type TestGateway } from '../../support/gateway-harness';
import { ScriptedChannelContext as ScriptedContext } from '../../support/scripted-channel-context';

class ScriptedChannelContext extends ScriptedContext {
  override readonly channelId = 'slack';
}

jest.setTimeout(120_000); // a shared machine under load: the gateway and the fakes are real servers

/**
 * Files in Slack conversations: a `file_share` message's files fetched from `url_private_download` with the bot token
 * through the whole gateway (within `mediaMaxMb`), and files the channel's send uploads by Slack's three-step flow
 * (`files.getUploadURLExternal`, the POST, `files.completeUploadExternal`) through WebClient.
 */
describe('slack files in the gateway', () => {
  let slack: FakeSlackServer;
  let model: FakeOpenAiServer;
  let gw: TestGateway;
  let app: FakeSlackApp;
  let logs: CapturedLogs;

  beforeAll(async () => {
    logs = captureLogLines();
    [slack, model] = await Promise.all([new FakeSlackServer().start(), new FakeOpenAiServer().start()]);
    model.always(model.text('got it'));
    app = slack.addApp('files');
    gw = await startTestGateway(
      `{
  gateway: { reload: { mode: "off" } },
  models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
  agents: { list: [{ id: "main", model: "fake/gpt-test", default: true }] },
  channels: {
    slack: { apiUrl: "${slack.apiUrl}", botToken: "\${SL_BOT}", appToken: "\${SL_APP}", dmPolicy: "open", allowFrom: ["*"], mediaMaxMb: 0.25 },
  },
}`,
      { env: { SL_BOT: app.botToken, SL_APP: app.appToken } },
    );
    for (let i = 0; i < 400; i++) {
      const body = (await request(gw.url).get('/admin/channels').set(API_CLIENT)).body as {
        channels?: { id: string; accounts: { state: string }[] }[];
      };
      if (body.channels?.find((c) => c.id === 'slack')?.accounts[0]?.state === 'connected') break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 180_000);
  afterAll(async () => {
    await gw?.stop();
    await Promise.all([model?.close(), slack?.close()]);
    logs?.stop();
  });

  const lastPrompt = (): string => {
    const messages = (model.requests.at(-1)?.body?.messages ?? []) as { role: string; content: string }[];
    return messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  };

  it('gives the agent a shared Markdown file inline and stores a PDF, downloaded with the bot token', async () => {
    const ann = slack.user('Ann');
    const pdf = Buffer.from('%PDF-1.4\n\x00\x01binary');
    slack.dmFiles(app, ann, 'two files', [
      { name: 'notes.md', mimetype: 'text/markdown', data: Buffer.from('# Notes\n- one') },
      { name: 'scan.pdf', mimetype: 'application/pdf', data: pdf },
    ]);
    await slack.waitForMessages(app, ann.id, (m) => m[0]?.text === 'got it', 30_000);
    expect(lastPrompt()).toContain('two files\n\nFiles sent with this message by the chat user.');
    expect(lastPrompt()).toContain('[Attachment 1 of 2 "notes.md" (text/markdown, 13 bytes):]\n```\n# Notes\n- one\n```');
    const stored = /stored at (agents\/main\/attachments\/slack-[0-9a-f-]+\/1-scan\.pdf)/.exec(lastPrompt());
    expect(stored).not.toBeNull();
    expect(await fs.readFile(path.join(gw.stateDir, stored![1]))).toEqual(pdf);
  });

  it('refuses a file over mediaMaxMb naming the limit, and says a deleted file could not be downloaded', async () => {
    const bo = slack.user('Bo');
    const asked = model.requests.length;
    slack.dmFiles(app, bo, '', [{ name: 'huge.mov', mimetype: 'video/quicktime', data: Buffer.alloc(300 * 1024) }]);
    const [refusal] = await slack.waitForMessages(app, bo.id, (m) => m.length === 1, 30_000);
    expect(refusal.text).toBe('The file "huge.mov" is 0.29 MB; files up to 0.25 MB are accepted here. Your message was not passed on.');

    const event = slack.dmFiles(app, bo, 'again', [{ name: 'gone.txt', mimetype: 'text/plain', data: Buffer.from('x') }]);
    slack.files.remove(event.files![0]);
    const messages = await slack.waitForMessages(app, bo.id, (m) => m.length === 2, 30_000);
    expect(messages[1].text).toBe(
      'The file "gone.txt" could not be downloaded (Slack answered the download with HTTP 404). Your message was not passed on; please send it again.',
    );
    expect(model.requests.length).toBe(asked);
    expect(JSON.stringify(logs.lines)).not.toContain(app.botToken);
  });
});

describe('slack channel plugin sending files', () => {
  let slack: FakeSlackServer;
  let channel: ChannelDefinition | undefined;

  beforeEach(async () => {
    slack = await new FakeSlackServer().start();
  });
  afterEach(async () => {
    await channel?.stop?.();
    channel = undefined;
    await slack.close();
  });

  it('uploads each file by getUploadURLExternal, the POST and completeUploadExternal, into the DM', async () => {
    const app = slack.addApp('uploader');
    const ann = slack.user('Ann');
    const context = new ScriptedChannelContext({ botToken: app.botToken, appToken: app.appToken, apiUrl: slack.apiUrl }, () => ({
      kind: 'ignored',
      reason: 'test',
    }));
    channel = slackChannel({ chatIntervalMs: 10 });
    await channel.start(context);
    slack.dm(app, ann, 'hello'); // the DM exists, as after a conversation
    await slack.waitFor(app, () => context.inbounds.length === 1, 30_000, 'the DM handed in');
    const bin = Buffer.from([0, 1, 2, 0xff, 0x0d, 0x0a, 0x2d, 0x2d]);
    const receipt = await channel.send({
      sessionKey: 'agent:main:main',
      accountId: 'default',
      peer: { kind: 'dm', id: ann.id },
      text: 'attached',
      files: [
        { name: 'data.bin', mimeType: 'application/octet-stream', data: bin },
        { name: 'b.txt', mimeType: 'text/plain', data: Buffer.from('bee') },
      ],
    });
    expect(receipt).toEqual({ status: 'delivered', messageId: expect.any(String) });
    const dm = app.conversationId(ann.id);
    expect(app.botMessages(dm).map((m) => m.text)).toEqual(['attached']);
    expect(slack.files.shared.map((f) => [f.channel, f.name, f.data])).toEqual([
      [dm, 'data.bin', bin],
      [dm, 'b.txt', Buffer.from('bee')],
    ]);
    expect(slack.calls(app, 'files.getUploadURLExternal').map((c) => [c.params.filename, String(c.params.length)])).toEqual([
      ['data.bin', '8'],
      ['b.txt', '3'],
    ]);
  });
});
