import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import request from 'supertest';
import { startTestGateway, TestGateway, waitFor } from '../support/gateway-harness';
import { launchChromium, screenshot, signIn, text, visit, watchedPage } from './support/browser';

// The functions given to page.waitForFunction run in the browser.
declare const document: any;

/**
 * The console's MCP page in a real Chromium against a gateway with three real MCP servers over stdio: the reference
 * `everything` server started with the gateway (ready, its tools listed, a secret in its env), the reference
 * filesystem server left lazy (idle), and a command that writes an error to stderr and exits (failed, retried).
 * Screenshots in test-output/console/ (see console.system-spec.ts).
 */

jest.setTimeout(90_000);

const VIEWER = 'console-mcp-viewer-token-0f9e8d';
const ENV_SECRET = 'console-mcp-env-secret-7c6b5a';
const BIN = path.resolve(__dirname, '../../node_modules/.bin');
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const BROKEN = "console.error('cannot open the index: permission denied'); process.exit(3)";

interface ServerView {
  name: string;
  state: string;
  transport: string;
  lastError?: string;
  stderr: string[];
  agents: string[];
  tools: Array<{ name: string; policyName: string; functionName: string }>;
}

describe('web console: the MCP page (system)', () => {
  let gw: TestGateway;
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
    gw = await startTestGateway(`{
      gateway: { admin: { tokens: [{ name: "dash", token: "${VIEWER}", role: "viewer" }] } },
      models: { providers: { fake: { api: "openai-chat", baseUrl: "http://127.0.0.1:9/v1" } } },
      agents: { list: [
        { id: "main", default: true, model: "fake/gpt-test", tools: { allow: ["mcp:everything:*", "mcp:files:*"] } },
        { id: "reader", model: "fake/gpt-test", tools: { allow: ["mcp:files:read_text_file"] } },
      ] },
      mcp: { servers: {
        everything: { command: "${BIN}/mcp-server-everything", args: ["stdio"], env: { CLAWGATE_TEST_SECRET: "${ENV_SECRET}" }, startup: "boot" },
        files: { command: "${BIN}/mcp-server-filesystem", args: ["${os.tmpdir()}"] },
        index: { command: "node", args: ["-e", ${JSON.stringify(BROKEN)}], startup: "boot" },
      } },
    }`);
    await waitFor(
      'everything to be ready and index to have failed',
      async () => {
        const servers: ServerView[] = (await request(gw.url).get('/admin/mcp').set(bearer(VIEWER)).expect(200)).body.servers;
        const byName = new Map(servers.map((s) => [s.name, s]));
        return byName.get('everything')?.state === 'ready' && !!byName.get('index')?.lastError;
      },
      30_000,
    );
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await gw?.stop();
  });

  async function signedIn(token: string): Promise<{ page: Page; problems: string[] }> {
    const watched = await watchedPage(browser, gw.url);
    await watched.page.goto(`${gw.url}/console/`);
    await signIn(watched.page, token);
    return watched;
  }
  const server = async (name: string): Promise<ServerView> =>
    (await request(gw.url).get(`/admin/mcp/${name}`).set(bearer(VIEWER)).expect(200)).body;

  it('lists each server with its state, transport and tools, and the error of the one that failed', async () => {
    const { page, problems } = await signedIn(VIEWER);
    await visit(page, '#/mcp');
    await page.waitForSelector('#mcp-list table');
    const rows = await page.$$eval('#mcp-list tbody tr', (trs) => trs.map((tr) => (tr as any).dataset.server));
    expect(rows).toEqual(['everything', 'files', 'index']);

    const everything = await server('everything');
    expect(everything.tools.length).toBeGreaterThan(0);
    expect(await text(page, '#mcp-list tr[data-server="everything"] .state')).toBe('ready');
    const everythingRow = await text(page, '#mcp-list tr[data-server="everything"]');
    expect(everythingRow).toContain('stdio');
    for (const tool of everything.tools) expect(everythingRow).toContain(tool.policyName);
    expect(await text(page, '#mcp-list tr[data-server="files"] .state')).toBe('idle');
    // The agents whose tool policy grants each server's tools, as the API lists them.
    const agentCells = await page.$$eval('#mcp-list tbody tr td:nth-child(6)', (tds) => tds.map((td) => td.textContent));
    expect(agentCells).toEqual(['main', 'mainreader', 'none']);
    expect((await server('files')).agents).toEqual(['main', 'reader']);
    const index = await server('index');
    expect(index.lastError).toBeDefined();
    await page.waitForFunction(() => document.querySelector('#mcp-list tr[data-server="index"] .error'));
    expect(await text(page, '#mcp-list tr[data-server="index"] .error')).toContain(index.lastError!.slice(0, 40));
    await screenshot(page, 'viewer-mcp');
    expect(problems).toEqual([]);
  });

  it("shows one server's tools with their policy and function names, stderr, and settings with the env redacted", async () => {
    const { page, problems } = await signedIn(VIEWER);
    await visit(page, '#/mcp/everything');
    await page.waitForSelector('#mcp-server table');
    const everything = await server('everything');
    const shown = await page.$$eval('#mcp-server tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('code')].map((c) => c.textContent)),
    );
    expect(shown).toEqual(everything.tools.map((t) => [t.name, t.policyName, t.functionName]));
    const detail = await text(page, '#mcp-server');
    expect(detail).toContain('"CLAWGATE_TEST_SECRET": "[redacted]"');
    expect(detail).not.toContain(ENV_SECRET);
    await screenshot(page, 'viewer-mcp-detail');

    await visit(page, '#/mcp/index');
    await page.waitForSelector('#mcp-last-error');
    expect(await text(page, '#mcp-server')).toContain('cannot open the index: permission denied');
    await screenshot(page, 'viewer-mcp-failed');

    // A server that is not configured: the API's 404 with its did-you-mean, not a blank page.
    await visit(page, '#/mcp/everthing');
    await page.waitForSelector('#mcp-server .error');
    expect(await text(page, '#mcp-server .error')).toBe('404 no MCP server "everthing" in mcp.servers (did you mean "everything"?)');
    expect(problems).toEqual([]);
  });
});
