import type { Browser } from 'puppeteer-core';
import request from 'supertest';
import { a2aRpc, userMessage } from '../support/a2a-rpc';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { launchChromium, screenshot, signIn, text, visit, watchedPage } from './support/browser';

// The function given to page.waitForFunction runs in the browser.
declare const document: any;

/**
 * The console's A2A task page in a real Chromium, for an operator: a running task (its model, a local fake, never
 * answers) is canceled from its page. Screenshots in test-output/console/ (see console.system-spec.ts).
 */

jest.setTimeout(60_000);

const PEER = 'console-tasks-peer-token-7d6c5b4a';
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('web console: an operator cancels a running A2A task (system)', () => {
  const OPERATOR = 'console-suite-operator-token-2e4f6a';
  let gw: TestGateway;
  let model: FakeOpenAiServer;
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
    // A model that never answers (the paid API is the one thing faked), so the task stays WORKING until canceled.
    model = await new FakeOpenAiServer().start();
    model.always(model.stall());
    gw = await startTestGateway(`{
      models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
      agents: { list: [{ id: "main", default: true, model: "fake/slow" }] },
      channels: { a2a: { enabled: true, peers: { hermes: { token: "${PEER}" } } } },
      gateway: { admin: { tokens: [{ name: "oncall", token: "${OPERATOR}", role: "operator" }] } },
    }`);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await gw?.stop();
    await model?.close();
  });

  it('shows the task working, cancels it from its page, and shows it canceled', async () => {
    const started = (
      await a2aRpc(gw.url, PEER, 'SendMessage', { ...userMessage('think for a long time'), configuration: { returnImmediately: true } })
    ).result.task;
    await waitFor('the run to reach the model', async () => model.requests.length >= 1);
    const { page, problems } = await watchedPage(browser, gw.url);
    await page.goto(`${gw.url}/console/`);
    await signIn(page, OPERATOR);
    await visit(page, `#/tasks/${started.id}`);
    await page.waitForSelector('#task-cancel');
    expect(await text(page, '#task')).toContain('WORKING');
    await screenshot(page, 'operator-task-working');
    await page.click('#task-cancel');
    await page.waitForFunction(() => document.querySelector('#task')?.textContent?.includes('CANCELED'));
    expect(await page.$('#task-cancel')).toBeNull();
    const { body: task } = await request(gw.url).get(`/admin/a2a/tasks/${started.id}`).set(bearer(OPERATOR)).expect(200);
    expect(task.state).toBe('TASK_STATE_CANCELED');
    await screenshot(page, 'operator-task-canceled');
    expect(problems).toEqual([]);
  });
});
