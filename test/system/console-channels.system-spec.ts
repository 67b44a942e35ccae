import * as path from 'node:path';
import type { Browser, HTTPRequest, Page } from 'puppeteer-core';
import request from 'supertest';
import type { ChannelInboundMessage, ChannelInboundOutcome } from '../../src/plugin-sdk';
import { CHAT_CODE, CHAT_MANIFEST, chatPlatform } from '../support/chat-channel-plugin';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { writePluginDir } from '../support/plugin-dirs';
import { launchChromium, screenshot, signIn, text, visit, watchedPage } from './support/browser';

// The functions given to page.waitForFunction run in the browser.
declare const document: any;

/**
 * The console's Channels and Pairing pages in a real Chromium against a gateway running a chat channel plugin (the
 * test's `chatkit`, whose "platform" is function calls, see test/support/chat-channel-plugin.ts) with two accounts:
 * its first start fails (a restart), one account connects, the other reports the platform's error. Unknown senders
 * get pairing codes; an operator approves one and denies another from the page, a code decided meanwhile is the 404
 * it is, and a viewer gets no decision buttons. Screenshots in test-output/console/ (see console.system-spec.ts).
 */

jest.setTimeout(90_000);

const OPERATOR = 'console-channels-operator-token-1a2b3c';
const VIEWER = 'console-channels-viewer-token-4d5e6f';
const PLATFORM_ERROR = 'account home: token rejected by the platform (401 Unauthorized)';
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const platform = chatPlatform({ failStarts: 1 });

const dm = (senderId: string, text = 'hello'): ChannelInboundMessage => ({
  accountId: 'work',
  peer: { kind: 'dm', id: `chat-${senderId}` },
  sender: { id: senderId, name: `Person ${senderId}` },
  messageId: `m-${Math.random()}`,
  text,
  mentionsBot: false,
});

interface PendingCode {
  code: string;
  senderId: string;
}
interface AccountView {
  accountId: string;
  state: string;
  error?: string;
  messagesIn: number;
  messagesOut: number;
  deliveryFailures: number;
}

describe('web console: the Channels and Pairing pages (system)', () => {
  let model: FakeOpenAiServer;
  let gw: TestGateway;
  let browser: Browser;

  const inbound = (message: ChannelInboundMessage): Promise<ChannelInboundOutcome> => platform.ctx!.inbound(message);
  const pending = async (): Promise<PendingCode[]> =>
    (await request(gw.url).get('/admin/pairing?channel=chat').set(bearer(VIEWER)).expect(200)).body.channels[0].pending;
  const accounts = async (): Promise<AccountView[]> =>
    (await request(gw.url).get('/admin/channels').set(bearer(VIEWER)).expect(200)).body.channels.find(
      (c: { id: string }) => c.id === 'chat',
    ).accounts;

  beforeAll(async () => {
    browser = await launchChromium();
    model = await new FakeOpenAiServer().start();
    model.always(model.text('Hello, paired friend.'));
    gw = await startTestGateway(
      `{
      gateway: { admin: { tokens: [
        { name: "oncall", token: "${OPERATOR}", role: "operator" },
        { name: "dash", token: "${VIEWER}", role: "viewer" },
      ] } },
      models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
      agents: { list: [{ id: "main", default: true, model: "fake/gpt-test" }] },
      channels: { chat: { accounts: { work: {}, home: {} } } },
      plugins: { load: { paths: ["./plugins"] } },
    }`,
      {
        beforeStart: async (stateDir) => {
          await writePluginDir(path.join(path.dirname(stateDir), 'plugins', 'chatkit'), {
            manifest: CHAT_MANIFEST,
            files: { 'index.js': CHAT_CODE },
          });
        },
      },
    );
    // The first start throws (the platform "unreachable"); the gateway retries it after its backoff.
    await waitFor('the chat channel to start after its failed first start', async () => platform.ctx !== undefined, 20_000);
    platform.ctx!.setHealth({ accountId: 'home', state: 'failed', error: PLATFORM_ERROR });
    for (const sender of ['ada', 'bob', 'cy']) expect((await inbound(dm(sender))).kind).toBe('pairing');
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await gw?.stop();
    await model?.close();
  });

  async function signedIn(token: string): Promise<{ page: Page; problems: string[] }> {
    const watched = await watchedPage(browser, gw.url);
    await watched.page.goto(`${gw.url}/console/`);
    await signIn(watched.page, token);
    return watched;
  }
  const accountRow = (account: string) => `#channels-list section[data-channel="chat"] tr[data-account="${account}"]`;

  it("shows each channel's life and, per account, its state with the platform's error and its message counts", async () => {
    const { body } = await request(gw.url).get('/admin/channels').set(bearer(VIEWER)).expect(200);
    const chat = body.channels.find((c: { id: string }) => c.id === 'chat');
    expect(chat).toMatchObject({ plugin: 'chatkit', state: 'running', restarts: 1 });

    const { page, problems } = await signedIn(OPERATOR);
    await visit(page, '#/channels');
    await page.waitForSelector('#channels-list section[data-channel="chat"] table');
    // Every channel of the API has its section, the gateway's own ones included.
    const sections = await page.$$eval('#channels-list section.channel', (ss) => ss.map((s) => (s as any).dataset.channel));
    expect(sections).toEqual(body.channels.map((c: { id: string }) => c.id));
    const section = await text(page, '#channels-list section[data-channel="chat"]');
    expect(section).toContain('plugin chatkit');
    expect(section).toContain('1 restart');
    expect(await text(page, '#channels-list section[data-channel="chat"] h2 .state')).toBe('running');

    for (const account of chat.accounts as AccountView[]) {
      const cells = await page.$$eval(`${accountRow(account.accountId)} td`, (tds) => tds.map((td) => td.textContent));
      expect(cells.slice(0, 5)).toEqual([
        account.accountId,
        `${account.state}${account.error ?? ''}`,
        String(account.messagesIn),
        String(account.messagesOut),
        String(account.deliveryFailures),
      ]);
    }
    expect(await text(page, `${accountRow('home')} .state`)).toBe('failed');
    expect(await text(page, `${accountRow('home')}`)).toContain(PLATFORM_ERROR);
    expect(await text(page, `${accountRow('work')} .state`)).toBe('connected');
    expect((chat.accounts as AccountView[]).find((a) => a.accountId === 'work')?.messagesIn).toBe(3);
    await screenshot(page, 'operator-channels');
    expect(problems).toEqual([]);
  });

  it('lets an operator approve and deny pairing codes; the approved sender is listed and gets through', async () => {
    const codes = await pending();
    expect(codes.map((c) => c.senderId)).toEqual(['ada', 'bob', 'cy']);
    const code = (sender: string) => codes.find((c) => c.senderId === sender)!.code;
    const { page, problems } = await signedIn(OPERATOR);
    await visit(page, '#/pairing');
    await page.waitForSelector('#pairing-list section[data-channel="chat"] tr.pending-code');
    const shown = await page.$$eval('#pairing-list tr.pending-code', (trs) => trs.map((tr) => (tr as any).dataset.code));
    expect(shown).toEqual(codes.map((c) => c.code));
    expect(await text(page, `#pairing-list tr[data-code="${code('ada')}"]`)).toContain('Person ada');
    await screenshot(page, 'operator-pairing');

    await page.click(`#pairing-list tr[data-code="${code('ada')}"] button[data-action="approve"]`);
    await page.waitForSelector('#pairing-decided');
    expect(await text(page, '#pairing-decided')).toBe('approved Person ada (ada) on chat');
    await page.waitForFunction(() => document.querySelector('#pairing-list tr.approved-sender')?.textContent.includes('ada'));
    await page.click(`#pairing-list tr[data-code="${code('bob')}"] button[data-action="deny"]`);
    await page.waitForFunction(() => document.querySelector('#pairing-decided')?.textContent === 'denied Person bob (bob) on chat');
    expect((await pending()).map((c) => c.senderId)).toEqual(['cy']);
    await page.waitForFunction(() => document.querySelectorAll('#pairing-list tr.pending-code').length === 1);
    await screenshot(page, 'operator-pairing-decided');

    // ada is through now: the reply streams and counts as a message out of the account.
    const outcome = await inbound(dm('ada', 'now may I?'));
    expect(outcome.kind).toBe('reply');
    for await (const event of (outcome as Extract<ChannelInboundOutcome, { kind: 'reply' }>).events) void event;
    await waitFor('the reply to be counted', async () => (await accounts()).find((a) => a.accountId === 'work')?.messagesOut === 1);
    await visit(page, '#/channels');
    await page.waitForSelector(`${accountRow('work')}`);
    const work = (await accounts()).find((a) => a.accountId === 'work')!;
    expect(work.messagesIn).toBe(4); // three asked for a code, then ada's message
    const cells = await page.$$eval(`${accountRow('work')} td`, (tds) => tds.map((td) => td.textContent));
    expect(cells.slice(2, 4)).toEqual([String(work.messagesIn), '1']);
    expect(problems).toEqual([]);
  });

  it('shows the 404 of a code someone else decided while the page showed it, and drops it', async () => {
    const [{ code }] = await pending();
    const { page, problems } = await signedIn(OPERATOR);
    await visit(page, '#/pairing');
    await page.waitForSelector(`#pairing-list tr[data-code="${code}"] button[data-action="approve"]`);
    // The click's request waits until another operator has denied the code (with the CLI, say): decided meanwhile.
    await page.setRequestInterception(true);
    page.on('request', (req: HTTPRequest) => {
      void (async () => {
        if (req.method() === 'POST' && req.url().endsWith(`/admin/pairing/chat/${code}/approve`)) {
          await request(gw.url)
            .post(`/admin/pairing/chat/${code}/deny`)
            .set(bearer(OPERATOR))
            .set('X-Clawgate-Client', 'console')
            .expect(200);
        }
        await req.continue();
      })();
    });
    await page.click(`#pairing-list tr[data-code="${code}"] button[data-action="approve"]`);
    await page.waitForSelector('#pairing-error');
    expect(await text(page, '#pairing-error')).toBe(
      `404 no pending pairing code ${code} for channel chat (expired, already decided, or never given)`,
    );
    await page.waitForFunction(() => document.querySelectorAll('#pairing-list tr.pending-code').length === 0);
    expect(await pending()).toEqual([]);
    await screenshot(page, 'operator-pairing-gone');
    expect(problems).toEqual([]);
  });

  it('shows a viewer the channels and codes without decision buttons; the server refuses a viewer’s approval', async () => {
    expect((await inbound(dm('dee'))).kind).toBe('pairing');
    const [{ code }] = await pending();
    const { page, problems } = await signedIn(VIEWER);
    await visit(page, '#/pairing');
    await page.waitForSelector(`#pairing-list tr[data-code="${code}"]`);
    expect(await page.$('#pairing-list button[data-action]')).toBeNull();
    expect(await text(page, '#pairing-list tr.approved-sender')).toContain('ada');
    await screenshot(page, 'viewer-pairing');
    await visit(page, '#/channels');
    await page.waitForSelector(accountRow('home'));
    const refused = await request(gw.url)
      .post(`/admin/pairing/chat/${code}/approve`)
      .set(bearer(VIEWER))
      .set('X-Clawgate-Client', 'console');
    expect(refused.status).toBe(403);
    expect((await pending()).map((c) => c.code)).toEqual([code]);
    expect(problems).toEqual([]);
  });
});
