import type { Browser } from 'puppeteer-core';
import request from 'supertest';
import { a2aRpc, userMessage } from '../support/a2a-rpc';
import type { FakeReply, RecordedRequest } from '../support/fake-model-server';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { launchChromium, screenshot, signIn, text, visit, watchedPage } from './support/browser';

// The functions given to page.waitForFunction and $$eval run in the browser.
declare const document: any;

/**
 * The console's run tree in a real Chromium: an A2A task's run of agent main `sessions_spawn`s agent worker, then both
 * wait on a model (a local fake) that never answers. From the task's page the operator opens the run's tree, sees both
 * runs live, steers the worker's session (a third run joins the tree) and kills the whole tree after confirming: every
 * run ends `aborted`, as the API says. A viewer gets no enabled control. Screenshots in test-output/console/.
 */

jest.setTimeout(90_000);

const PEER = 'console-runs-peer-token-5b6c7d8e';
const OPERATOR = 'console-runs-operator-token-1a2b3c';
const VIEWER = 'console-runs-viewer-token-9f8e7d';
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

interface TreeNode {
  runId: string;
  status: string;
  agentId: string;
  sessionKey: string;
  children: TreeNode[];
}
const flat = (n: TreeNode): TreeNode[] => [n, ...n.children.flatMap(flat)];

describe('web console: the run tree, its steer and its kill (system)', () => {
  let gw: TestGateway;
  let model: FakeOpenAiServer;
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
    model = await new FakeOpenAiServer().start();
    // main spawns worker once, then waits like worker does: on a model that never answers.
    model.always((req: RecordedRequest): FakeReply => {
      const messages = req.body.messages as Array<{ role: string; content: string | null }>;
      const system = messages.find((m) => m.role === 'system')?.content ?? '';
      const spawning = system.includes('agent id "main"') && messages.at(-1)?.role !== 'tool';
      return spawning ? model.toolCall('sessions_spawn', { agentId: 'worker', task: 'crunch the numbers' })(req) : model.stall()(req);
    });
    gw = await startTestGateway(`{
      models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
      agents: { list: [{ id: "main", default: true, model: "fake/slow" }, { id: "worker", model: "fake/slow" }] },
      tools: { agentToAgent: { enabled: true, allow: ["*"] }, sessions: { visibility: "all" } },
      channels: { a2a: { enabled: true, peers: { hermes: { token: "${PEER}" } } } },
      gateway: { admin: { tokens: [
        { name: "oncall", token: "${OPERATOR}", role: "operator" },
        { name: "reader", token: "${VIEWER}", role: "viewer" },
      ] } },
    }`);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await gw?.stop();
    await model?.close();
  });

  const treeOf = async (runId: string) =>
    (await request(gw.url).get(`/admin/runs/${runId}/tree`).set(bearer(OPERATOR)).expect(200)).body as TreeNode;

  it('shows the live tree from the task, steers the worker, kills every run, and gives a viewer nothing to press', async () => {
    const task = (
      await a2aRpc(gw.url, PEER, 'SendMessage', { ...userMessage('start the numbers'), configuration: { returnImmediately: true } })
    ).result.task;
    let rootRunId = '';
    await waitFor('main to spawn worker and both to wait on the model', async () => {
      const { body } = await request(gw.url).get(`/admin/a2a/tasks/${task.id}`).set(bearer(OPERATOR));
      rootRunId = body.runId ?? '';
      if (!rootRunId) return false;
      const runs = flat(await treeOf(rootRunId));
      return runs.length === 2 && runs.every((r) => r.status === 'running');
    });
    const worker = flat(await treeOf(rootRunId)).find((r) => r.agentId === 'worker')!;

    const { page, problems } = await watchedPage(browser, gw.url);
    await page.goto(`${gw.url}/console/`);
    await signIn(page, OPERATOR);
    await visit(page, `#/tasks/${task.id}`);
    await page.waitForSelector('#task-run');
    await page.click('#task-run');
    await page.waitForFunction(() => document.querySelectorAll('#run-tree .run-node').length === 2);
    const nodes = () =>
      page.$$eval('#run-tree .run-node', (lis: any[]) =>
        lis.map((li) => ({
          runId: li.dataset.runId,
          state: li.querySelector('.run-facts .state').textContent,
          facts: li.querySelector('.run-facts').textContent,
          depth: (() => {
            let d = 0;
            for (let p = li.parentElement; p && p.id !== 'run-tree'; p = p.parentElement) if (p.classList.contains('run-tree')) d++;
            return d;
          })(),
        })),
      );
    expect(await nodes()).toEqual([
      { runId: rootRunId, state: 'running', facts: expect.stringContaining('fake/slow'), depth: 0 },
      { runId: worker.runId, state: 'running', facts: expect.stringContaining(worker.sessionKey), depth: 1 },
    ]);
    expect((await nodes())[0].facts).toContain('agent:main:');
    expect(await text(page, '#runs-live')).toContain('Live');
    await screenshot(page, 'operator-run-tree');

    // Steer the worker's session: the run is queued behind the one in progress and joins the tree.
    const workerNode = `#run-tree .run-node[data-run-id="${worker.runId}"]`;
    await page.click(`${workerNode} > .run-actions summary`);
    await page.type(`${workerNode} > .run-actions .run-steer-message`, 'only the totals, please');
    await page.click(`${workerNode} > .run-actions .run-steer`);
    await page.waitForSelector('#runs-steered');
    expect(await text(page, '#runs-steered')).toMatch(new RegExp(`^steered ${worker.sessionKey}: run \\S+, 1 run\\(s\\) ahead$`));
    await page.waitForFunction(() => document.querySelectorAll('#run-tree .run-node').length === 3);
    const beforeKill = flat(await treeOf(rootRunId));
    expect(beforeKill).toHaveLength(3);

    // Kill asks first; the tree then shows every run aborted, as the API does.
    await page.click(`#run-tree .run-node[data-run-id="${rootRunId}"] > .run-actions .run-kill`);
    expect(await text(page, `#run-tree .run-node[data-run-id="${rootRunId}"] > .run-actions .run-kill-ask`)).toContain(
      `Abort run ${rootRunId} and every run below it`,
    );
    await page.click(`#run-tree .run-node[data-run-id="${rootRunId}"] > .run-actions .run-kill-confirm`);
    await page.waitForSelector('#runs-killed');
    expect(await text(page, '#runs-killed')).toMatch(/^aborted 3 run\(s\): /);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('#run-tree .run-node .run-facts .state')].every((s: any) => s.textContent === 'aborted'),
    );
    const afterKill = flat(await treeOf(rootRunId));
    expect(afterKill.map((r) => r.status)).toEqual(['aborted', 'aborted', 'aborted']);
    expect((await nodes()).map((n) => n.runId).sort()).toEqual(afterKill.map((r) => r.runId).sort());
    expect(await text(page, '#runs-live')).toBe('Every run of this tree is over.');
    // Nothing left to stop: no kill is offered.
    expect(await page.$$eval('#run-tree .run-kill', (bs: any[]) => bs.filter((b) => !b.hidden).length)).toBe(0);
    await screenshot(page, 'operator-run-tree-killed');
    expect(problems).toEqual([]);

    // A viewer: the page says the tree is the operator's and offers no control; the server refuses its kill too.
    const viewer = await watchedPage(browser, gw.url);
    await viewer.page.goto(`${gw.url}/console/`);
    await signIn(viewer.page, VIEWER);
    await visit(viewer.page, `#/runs/${rootRunId}`);
    expect(await text(viewer.page, '#runs-denied')).toContain('operator role');
    expect(await viewer.page.$$eval('#main button, #main input', (els: any[]) => els.filter((e) => !e.disabled && !e.hidden).length)).toBe(
      0,
    );
    await request(gw.url).post(`/admin/runs/${rootRunId}/kill`).set(bearer(VIEWER)).set('X-Clawgate-Client', 'console').expect(403);
    await screenshot(viewer.page, 'viewer-runs');
    expect(viewer.problems).toEqual([]);
  });

  it('names what is wrong with a run id that is no run id, or no run', async () => {
    const { page, problems } = await watchedPage(browser, gw.url);
    await page.goto(`${gw.url}/console/`);
    await signIn(page, OPERATOR);
    await visit(page, '#/runs');
    await page.type('#runs-id', 'not a run');
    await page.click('#runs-open');
    await page.waitForSelector('#run-tree .error');
    expect(await text(page, '#run-tree .error')).toMatch(/^400 .*not a run/i);
    await visit(page, '#/runs/00000000-0000-4000-8000-000000000000');
    await page.waitForSelector('#run-tree .error');
    expect(await text(page, '#run-tree .error')).toContain('404 no run with id "00000000-0000-4000-8000-000000000000"');
    expect(problems).toEqual([]);
  });
});
