import type { Browser, HTTPRequest, Page } from 'puppeteer-core';
import request from 'supertest';
import { a2aRpc, userMessage } from '../support/a2a-rpc';
import { agentBrain } from '../support/agent-brain';
import { FakeOpenAiServer } from '../support/fake-openai-server';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { launchChromium, screenshot, signIn, text, visit, watchedPage } from './support/browser';

// The functions given to page.waitForFunction and $eval run in the browser.
declare const document: any;

/**
 * The console's Approvals page in a real Chromium: the agent's model (a local fake) calls `session_status`, which
 * `tools.requiresApproval` names, so each A2A task waits at INPUT_REQUIRED. An operator approves one with a note from
 * the page (the task completes) and denies another (the model reads the note); arguments the model wrote as HTML are
 * shown as text; a too-long note's 400 and the 409 of a call someone else decided meanwhile are shown with their
 * detail; a viewer sees the calls with no enabled decision button while the server refuses its approval.
 * Screenshots in test-output/console/ (see console.system-spec.ts).
 */

jest.setTimeout(90_000);

const PEER = 'console-approvals-peer-token-8f7e6d';
const OPERATOR = 'console-approvals-operator-token-3c2b1a';
const OTHER_OPERATOR = 'console-approvals-night-token-9a8b7c';
const VIEWER = 'console-approvals-viewer-token-5d4e3f';
/** What a model could be made to write into a tool call: it must reach the page as text and run nothing. */
const HOSTILE = `<img src=x onerror="document.body.dataset.pwned='yes'">`;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

interface Approval {
  id: string;
  state: string;
  taskId?: string;
  decidedBy?: string;
  note?: string;
}
interface WireTask {
  id: string;
  status: { state: string };
  artifacts?: Array<{ parts: Array<{ text: string }> }>;
}

describe('web console: the Approvals page (system)', () => {
  let model: FakeOpenAiServer;
  let gw: TestGateway;
  let browser: Browser;

  /** Sends a message whose run calls session_status; answers at once with the task (returnImmediately). */
  const send = async (words: string): Promise<WireTask> =>
    (await a2aRpc(gw.url, PEER, 'SendMessage', { ...userMessage(words), configuration: { returnImmediately: true } })).result.task;
  const approvals = async (query = ''): Promise<Approval[]> =>
    (await request(gw.url).get(`/admin/approvals${query}`).set(bearer(VIEWER)).expect(200)).body.items;
  /** The approval the task's run waits for, once it is recorded. */
  const waitingFor = (task: WireTask) =>
    waitFor(
      `task ${task.id} to wait for approval`,
      async () => (await approvals('?state=pending')).find((a) => a.taskId === task.id),
      15_000,
    );
  const completed = (task: WireTask) =>
    waitFor(
      `task ${task.id} to complete`,
      async () => {
        const now = (await a2aRpc(gw.url, PEER, 'GetTask', { id: task.id })).result as WireTask;
        return now.status.state === 'TASK_STATE_COMPLETED' && now;
      },
      15_000,
    );
  const reply = (task: WireTask) => task.artifacts?.[0]?.parts.map((p) => p.text).join('') ?? '';
  const subjectOf = async (token: string): Promise<string> =>
    (await request(gw.url).get('/admin/whoami').set(bearer(token)).expect(200)).body.subject;

  beforeAll(async () => {
    browser = await launchChromium();
    model = await new FakeOpenAiServer().start();
    model.always(
      agentBrain(model, ({ message, toolResult }) => {
        if (toolResult)
          return {
            text: `after the call: ${String(toolResult.status)} ${typeof toolResult.error === 'string' ? toolResult.error : ''}`.trim(),
          };
        if (message.includes('html')) return { tool: 'session_status', args: { sessionKey: HOSTILE } };
        return { tool: 'session_status', args: {} };
      }),
    );
    gw = await startTestGateway(`{
      gateway: { admin: { tokens: [
        { name: "oncall", token: "${OPERATOR}", role: "operator" },
        { name: "night", token: "${OTHER_OPERATOR}", role: "operator" },
        { name: "dash", token: "${VIEWER}", role: "viewer" },
      ] } },
      models: { providers: { fake: { api: "openai-chat", baseUrl: "${model.baseUrl}" } } },
      agents: { list: [{ id: "main", default: true, model: "fake/brain", tools: { requiresApproval: ["session_status"] } }] },
      channels: { a2a: { enabled: true, rateLimitPerMinute: 0, peers: { hermes: { token: "${PEER}" } } } },
    }`);
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
    await visit(watched.page, '#/approvals');
    return watched;
  }
  const pendingRow = (id: string) => `#approvals-pending tr[data-approval="${id}"]`;
  const decidedRow = (id: string) => `#approvals-decided tr[data-approval="${id}"]`;
  const setNote = (page: Page, id: string, note: string) =>
    page.$eval(
      `${pendingRow(id)} input.approval-note`,
      (input: any, value: string) => {
        input.value = value;
        input.dispatchEvent(new input.ownerDocument.defaultView.Event('input'));
      },
      note,
    );
  // The page's poll may redraw the list between finding a button and clicking it (a mouse click then finds the node
  // gone), so the click is dispatched on the button as the page has it at that moment.
  const decide = (page: Page, id: string, action: 'approve' | 'deny') =>
    page.$eval(`${pendingRow(id)} button[data-action="${action}"]`, (button: any) => button.click());

  it('lists a waiting call with where it came from; an operator approves it with a note and the task completes', async () => {
    const task = await send('what is my status?');
    const approval = await waitingFor(task);
    const { page, problems } = await signedIn(OPERATOR);
    await page.waitForSelector(pendingRow(approval.id));
    const row = await text(page, pendingRow(approval.id));
    for (const fact of ['session_status', 'agent main', 'a2a:hermes', `task ${task.id}`]) expect(row).toContain(fact);
    expect(await text(page, `${pendingRow(approval.id)} pre`)).toBe('{}');
    expect(await page.$eval(`${pendingRow(approval.id)} a.approval-task`, (a: any) => a.getAttribute('href'))).toBe(`#/tasks/${task.id}`);
    // The default tools.approvalTimeoutMs is 10 minutes: the countdown is minutes and seconds.
    expect(await text(page, `${pendingRow(approval.id)} time.countdown`)).toMatch(/^in \d+m \d+s$/);
    expect(await text(page, '#main h2')).toBe('Waiting for a decision (1)');
    await screenshot(page, 'operator-approvals');

    await page.type(`${pendingRow(approval.id)} input.approval-note`, 'looks fine');
    await decide(page, approval.id, 'approve');
    await page.waitForSelector('#approvals-decided-ok');
    expect(await text(page, '#approvals-decided-ok')).toBe(`approved session_status for agent main (approval ${approval.id})`);
    await page.waitForSelector(decidedRow(approval.id));
    const me = await subjectOf(OPERATOR);
    expect(me).toBe('token:oncall');
    expect(await text(page, `${decidedRow(approval.id)} .state`)).toBe('approved');
    expect(await text(page, `${decidedRow(approval.id)} .decided-by`)).toBe(me);
    expect(await text(page, `${decidedRow(approval.id)} .approval-note-text`)).toBe('looks fine');
    expect(await text(page, '#approvals-pending')).toBe('No tool call waits for a decision.');

    expect(reply(await completed(task))).toBe('after the call: ok');
    const { body: stored } = await request(gw.url).get(`/admin/approvals/${approval.id}`).set(bearer(VIEWER)).expect(200);
    expect(stored).toMatchObject({ state: 'approved', decidedBy: me, note: 'looks fine' });
    await screenshot(page, 'operator-approvals-approved');
    expect(problems).toEqual([]);
  });

  it('shows arguments written as HTML as text; a denial gives the note to the model; the filter shows one state', async () => {
    const task = await send('my status as html');
    const approval = await waitingFor(task);
    const { page, problems } = await signedIn(OPERATOR);
    await page.waitForSelector(pendingRow(approval.id));
    expect(await text(page, `${pendingRow(approval.id)} pre`)).toBe(JSON.stringify({ sessionKey: HOSTILE }, null, 2));
    expect(await page.$('#main img')).toBeNull();
    expect(await page.evaluate(() => document.body.dataset.pwned ?? null)).toBeNull();

    await setNote(page, approval.id, 'not on this session');
    await decide(page, approval.id, 'deny');
    await page.waitForFunction(
      (id: string) =>
        document.querySelector('#approvals-decided-ok')?.textContent === `denied session_status for agent main (approval ${id})`,
      {},
      approval.id,
    );
    await page.waitForSelector(decidedRow(approval.id));
    expect(await text(page, `${decidedRow(approval.id)} .state`)).toBe('denied');
    expect(await text(page, `${decidedRow(approval.id)} .approval-note-text`)).toBe('not on this session');
    expect(reply(await completed(task))).toBe(
      `after the call: forbidden the operator denied this call of session_status (approval ${approval.id}): not on this session`,
    );

    const decidedIds = () => page.$$eval('#approvals-decided tbody tr', (trs) => trs.map((tr: any) => tr.dataset.approval));
    const [approved] = await approvals('?state=approved');
    await page.select('#approvals-filter', 'denied');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('#approvals-decided .state')].every((s: any) => s.textContent === 'denied'),
    );
    expect(await decidedIds()).toEqual([approval.id]);
    await page.select('#approvals-filter', 'approved');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('#approvals-decided .state')].every((s: any) => s.textContent === 'approved'),
    );
    expect(await decidedIds()).toEqual([approved.id]);
    await page.select('#approvals-filter', 'expired');
    await page.waitForFunction(() => document.querySelector('#approvals-decided')?.textContent === 'No expired call among the latest 100.');
    await page.select('#approvals-filter', '');
    await page.waitForFunction(() => document.querySelectorAll('#approvals-decided tbody tr').length === 2);
    expect(await decidedIds()).toEqual([approval.id, approved.id]);
    await screenshot(page, 'operator-approvals-denied');
    expect(problems).toEqual([]);
  });

  it("shows a too-long note's 400 and the 409 of a call someone else decided meanwhile, naming who", async () => {
    const task = await send('status, one more time');
    const approval = await waitingFor(task);
    const { page, problems } = await signedIn(OPERATOR);
    await page.waitForSelector(pendingRow(approval.id));

    await setNote(page, approval.id, 'x'.repeat(2001));
    await decide(page, approval.id, 'approve');
    await page.waitForSelector('#approvals-error');
    expect(await text(page, '#approvals-error')).toBe('400 note must be a string of at most 2000 characters');
    expect((await approvals('?state=pending')).map((a) => a.id)).toEqual([approval.id]);

    // The click's request waits until another operator has denied the call (with the CLI, say): decided meanwhile.
    await page.setRequestInterception(true);
    page.on('request', (req: HTTPRequest) => {
      void (async () => {
        if (req.method() === 'POST' && req.url().endsWith(`/admin/approvals/${approval.id}/approve`)) {
          await request(gw.url)
            .post(`/admin/approvals/${approval.id}/deny`)
            .set(bearer(OTHER_OPERATOR))
            .set('X-Clawgate-Client', 'console')
            .send({ note: 'not now' })
            .expect(200);
        }
        await req.continue();
      })();
    });
    await setNote(page, approval.id, '');
    await decide(page, approval.id, 'approve');
    await page.waitForFunction(() => document.querySelector('#approvals-error')?.textContent.startsWith('409'));
    expect(await text(page, '#approvals-error')).toMatch(
      new RegExp(`^409 approval ${approval.id} is already denied \\(by token:night at [^)]+\\); the first decision stands$`),
    );
    await page.waitForSelector(decidedRow(approval.id));
    expect(await text(page, `${decidedRow(approval.id)} .decided-by`)).toBe('token:night');
    expect(await page.$(pendingRow(approval.id))).toBeNull();
    expect(reply(await completed(task))).toContain('the operator denied this call of session_status');
    await screenshot(page, 'operator-approvals-conflict');
    expect(problems).toEqual([]);
  });

  it('keeps a note being typed, and the cursor in it, when a new call arrives and the list is redrawn', async () => {
    const first = await send('status while typing');
    const firstApproval = await waitingFor(first);
    const { page, problems } = await signedIn(OPERATOR);
    const field = `${pendingRow(firstApproval.id)} input.approval-note`;
    await page.waitForSelector(field);
    await page.type(field, 'half a');
    const second = await send('status arriving meanwhile');
    const secondApproval = await waitingFor(second);
    // The page's poll draws the new call above the first.
    await page.waitForSelector(pendingRow(secondApproval.id), { timeout: 15_000 });
    expect(await page.$$eval('#approvals-pending tbody tr', (trs) => trs.map((tr: any) => tr.dataset.approval))).toEqual([
      secondApproval.id,
      firstApproval.id,
    ]);
    expect(await page.$eval(field, (input: any) => input.value)).toBe('half a');
    expect(await page.evaluate(() => document.activeElement?.closest('tr')?.dataset.approval ?? null)).toBe(firstApproval.id);
    await page.keyboard.type('nd more');
    await decide(page, firstApproval.id, 'deny');
    await page.waitForSelector(decidedRow(firstApproval.id));
    expect(await text(page, `${decidedRow(firstApproval.id)} .approval-note-text`)).toBe('half and more');
    // The other call's field was left empty: approved without a note.
    await decide(page, secondApproval.id, 'approve');
    await page.waitForSelector(decidedRow(secondApproval.id));
    expect(await page.$(`${decidedRow(secondApproval.id)} .approval-note-text`)).toBeNull();
    await completed(first);
    await completed(second);
    expect(problems).toEqual([]);
  });

  it('shows a viewer the calls with no enabled decision button, saying why; the server refuses its approval', async () => {
    const task = await send('status for the viewer');
    const approval = await waitingFor(task);
    const { page, problems } = await signedIn(VIEWER);
    await page.waitForSelector(pendingRow(approval.id));
    expect(await text(page, '#approvals-role')).toBe('Signed in as viewer: deciding needs the operator role.');
    const controls = await page.$$eval(`${pendingRow(approval.id)} button, ${pendingRow(approval.id)} input`, (els) =>
      els.map((el: any) => ({ disabled: el.disabled, title: el.title })),
    );
    expect(controls).toHaveLength(3);
    for (const control of controls) expect(control).toEqual({ disabled: true, title: 'Deciding needs the operator role' });
    expect(await page.$('#approvals-pending button:not([disabled])')).toBeNull();
    // The decided calls are listed for a viewer too.
    expect(await page.$$eval('#approvals-decided tbody tr', (trs) => trs.length)).toBe(5);
    await screenshot(page, 'viewer-approvals');

    const refused = await request(gw.url)
      .post(`/admin/approvals/${approval.id}/approve`)
      .set(bearer(VIEWER))
      .set('X-Clawgate-Client', 'console')
      .send({});
    expect(refused.status).toBe(403);
    expect((await approvals('?state=pending')).map((a) => a.id)).toEqual([approval.id]);
    // Let the run finish before the gateway stops.
    await request(gw.url)
      .post(`/admin/approvals/${approval.id}/deny`)
      .set(bearer(OPERATOR))
      .set('X-Clawgate-Client', 'console')
      .expect(200);
    await completed(task);
    expect(problems).toEqual([]);
  });
});
