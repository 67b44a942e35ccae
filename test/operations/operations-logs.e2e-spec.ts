import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { startGateway } from '../../src/bootstrap';
import { LogSettingsError } from '../../src/common/logging/log-settings';
import { ConfigStore } from '../../src/modules/config';
import { a2aRpc, userMessage } from '../support/a2a-rpc';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { API_CLIENT } from '../support/admin-client';

/**
 * The gateway's log as an operator reads it (docs/operations.md#logs): pretty lines on a terminal, JSON lines
 * otherwise, the banner, one line per inbound message, run, A2A request and config change, all lines of a request
 * carrying its id — and no secret in any of them. A real gateway writes into a stream the test hands it.
 */

const PARTNER = 'partner-token-logs-0000001';
const DESK = 'desk-token-logs-000000001';
const config = (extra = '') => `{
  agents: { list: [{ id: "main" }] },
  channels: {
    http: { enabled: true, accounts: { desk: { token: "${DESK}" } } },
    a2a: { enabled: true, peers: { partner: { token: "${PARTNER}" } } },
  },
  ${extra}
}`;

/** A stream that says it is a terminal (as process.stdout does on a TTY) and keeps what is written. */
class TerminalStream {
  readonly isTTY: boolean;
  readonly chunks: string[] = [];
  constructor(isTTY: boolean) {
    this.isTTY = isTTY;
  }
  write(chunk: string): boolean {
    this.chunks.push(chunk);
    return true;
  }
  get lines(): string[] {
    return this.chunks.join('').split('\n').filter(Boolean);
  }
}

// Colours off for the assertions: the pretty formatter colours only real terminals' output (isTTY), and the text
// read here is the same either way once the escape codes are gone.
const ESCAPE_CODES = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const plain = (line: string) => line.replace(ESCAPE_CODES, '');

describe('pretty logs on a terminal (e2e)', () => {
  const out = new TerminalStream(true);
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway(config(), { log: { logLevel: 'info', logTarget: out } });
  });

  it('the banner names every URL, the config and the state dir; the framework route lines stay at debug', () => {
    const lines = out.lines.map(plain);
    const banner = lines.find((l) => l.includes('clawgate listening on'));
    expect(banner).toMatch(/^\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\] INFO: \[gateway\] clawgate listening on /);
    expect(banner).toContain(
      `clawgate listening on ${gw.url} — admin API ${gw.url}/admin, docs ${gw.url}/docs, console ${gw.url}/console/, `,
    );
    expect(banner).toContain(`agent card ${gw.url}/.well-known/agent-card.json`);
    expect(banner).toContain(`config ${gw.configPath} (revision `);
    expect(banner).toContain(`state ${gw.stateDir}`);
    expect(lines.some((l) => l.includes('Mapped {'))).toBe(false);
    // Pretty lines are text, not JSON.
    expect(lines.every((l) => !l.startsWith('{'))).toBe(true);
  });

  it('one line for the A2A request, one for its message and one for its run, all with the request id', async () => {
    const res = await request(gw.url)
      .post('/a2a/v1')
      .set('Authorization', `Bearer ${PARTNER}`)
      .send({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: userMessage('hello in pretty') });
    const reqId = res.headers['x-request-id'];
    const task = res.body.result.task;
    const lines = out.lines.map(plain).filter((l) => l.includes(`(req ${reqId})`));
    const runId = /, run (\S+) \(req /.exec(lines.find((l) => l.includes('[runtime] message on a2a')) ?? '')?.[1];
    expect(lines.find((l) => l.includes('[runtime] message on a2a'))).toMatch(
      new RegExp(
        `INFO: \\[runtime\\] message on a2a from partner for agent main: session agent:main:a2a:\\S+, run \\S+ \\(req ${reqId}\\)$`,
      ),
    );
    expect(lines.find((l) => l.includes('[runtime] run '))).toMatch(
      /INFO: \[runtime\] run \S+ completed in \d+ ms \(agent main, model \S+, \d+ in \/ \d+ out tokens\) \(req \S+\)$/,
    );
    expect(lines.find((l) => l.includes('[a2a] A2A SendMessage'))).toMatch(
      new RegExp(
        `INFO: \\[a2a\\] A2A SendMessage from partner \\(jsonrpc\\): OK, task ${task.id} completed in [\\d.]+ ms \\(req ${reqId}\\)$`,
      ),
    );
    expect(lines.find((l) => l.includes('[runtime] run '))).toContain(`run ${runId} completed`);
    expect(lines).toHaveLength(3);
  });

  it('the last line says the gateway stopped', async () => {
    await gw.stop();
    expect(plain(out.lines.at(-1) ?? '')).toMatch(/INFO: \[gateway\] clawgate stopped after \d+ s$/);
  });
});

describe('JSON logs (e2e)', () => {
  const out = new TerminalStream(false);
  let gw: TestGateway;
  const parsed = () => out.lines.map((l) => JSON.parse(l) as Record<string, any>);
  const events = (event: string) => parsed().filter((l) => l.event === event);

  beforeAll(async () => {
    gw = await startTestGateway(config(), { log: { logLevel: 'info', logTarget: out } });
  });
  afterAll(() => gw?.stop());

  it('every line is JSON with an ISO time; the banner carries its URLs and paths as fields', () => {
    for (const line of parsed()) expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(events('gateway.started')).toEqual([
      expect.objectContaining({
        level: 30,
        url: gw.url,
        adminApi: `${gw.url}/admin`,
        docs: `${gw.url}/docs`,
        console: `${gw.url}/console/`,
        agentCard: `${gw.url}/.well-known/agent-card.json`,
        a2a: `${gw.url}/a2a/v1`,
        configPath: gw.configPath,
        stateDir: gw.stateDir,
        agents: 1,
        logFormat: 'json',
      }),
    ]);
    expect(parsed().filter((l) => l.level === 30 && /^Mapped \{/.test(l.msg))).toEqual([]);
  });

  it('an http channel message: its message and run lines carry the request id the response names', async () => {
    const res = await request(gw.url)
      .post('/channels/http/messages')
      .set('Authorization', `Bearer ${DESK}`)
      .set('X-Request-Id', 'desk-call-42')
      .send({ peer: { kind: 'direct', id: 'alice' }, text: 'hi from the desk' })
      .expect(200);
    expect(res.headers['x-request-id']).toBe('desk-call-42');
    const { runId, sessionKey } = res.body;
    expect(events('message.received').filter((l) => l.runId === runId)).toEqual([
      expect.objectContaining({ reqId: 'desk-call-42', channel: 'http', peer: 'desk/alice', agent: 'main', sessionKey, runId }),
    ]);
    expect(events('run.ended').filter((l) => l.runId === runId)).toEqual([
      expect.objectContaining({
        reqId: 'desk-call-42',
        channel: 'http',
        outcome: 'completed',
        agent: 'main',
        sessionKey,
        durationMs: expect.any(Number),
        model: expect.any(String),
        inputTokens: expect.any(Number),
        outputTokens: expect.any(Number),
      }),
    ]);
  });

  it('an A2A SendMessage: the request line names method, peer, task, state and duration', async () => {
    const answer = await a2aRpc(gw.url, PARTNER, 'SendMessage', userMessage('hi over A2A'));
    const taskId = answer.result.task.id;
    const [line] = events('a2a.request').filter((l) => l.taskId === taskId);
    expect(line).toEqual(
      expect.objectContaining({
        method: 'SendMessage',
        binding: 'jsonrpc',
        peer: 'partner',
        state: 'completed',
        code: 'OK',
        durationMs: expect.any(Number),
        reqId: expect.any(String),
      }),
    );
    const run = events('run.ended').find((l) => l.reqId === line.reqId);
    expect(run).toEqual(expect.objectContaining({ channel: 'a2a', outcome: 'completed' }));
    expect(events('message.received').find((l) => l.reqId === line.reqId)).toEqual(
      expect.objectContaining({ channel: 'a2a', peer: 'partner', runId: run?.runId }),
    );
  });

  it('a rejected config change: its line names the source, the revision kept and the error count', async () => {
    const before = gw.app.get(ConfigStore).current().revision;
    await gw.writeConfig(config('bogusKey: 1, agentz: 2,'));
    await request(gw.url).post('/admin/config/reload').set(API_CLIENT).expect(422);
    expect(events('config.rejected').at(-1)).toEqual(
      expect.objectContaining({ level: 40, source: 'admin', revision: before, errorCount: 2 }),
    );
  });

  it('no line holds a token or an Authorization header', () => {
    const all = out.chunks.join('');
    for (const secret of [PARTNER, DESK]) expect(all).not.toContain(secret);
    expect(all.toLowerCase()).not.toContain('bearer ');
  });
});

describe('log settings that are not valid (e2e)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clawgate-logs-bad-'));
    await fs.writeFile(path.join(dir, 'openclaw.json'), config());
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));
  const options = (extra: object) => ({
    configPath: path.join(dir, 'openclaw.json'),
    stateDir: path.join(dir, 'state'),
    portOverride: 0,
    env: { HOME: dir },
    ...extra,
  });

  it.each([
    [{ logFormat: 'xml' }, '--log-format: must be one of auto, pretty, json (got "xml")'],
    [{ env: { HOME: '/nonexistent', CLAWGATE_LOG_FORMAT: 'yaml' } }, 'CLAWGATE_LOG_FORMAT: must be one of auto, pretty, json (got "yaml")'],
    [
      { env: { HOME: '/nonexistent', CLAWGATE_LOG_LEVEL: 'loud' } },
      'CLAWGATE_LOG_LEVEL: must be one of trace, debug, info, warn, error, fatal, silent (got "loud")',
    ],
    [{ logLevel: 'verbose' }, '--log-level: must be one of trace, debug, info, warn, error, fatal, silent (got "verbose")'],
  ])('%j is refused, naming the setting', async (extra, message) => {
    const started = startGateway(options(extra));
    await expect(started).rejects.toThrow(LogSettingsError);
    await expect(started).rejects.toThrow(message);
  });

  it('a refused setting leaves nothing behind: the same state dir then starts', async () => {
    await expect(startGateway(options({ logFormat: 'xml' }))).rejects.toThrow(LogSettingsError);
    const out = new TerminalStream(false);
    const gw = await startGateway(options({ logFormat: 'JSON', logLevel: 'debug', logTarget: out }));
    expect((await request(gw.url).get('/healthz')).status).toBe(200);
    await gw.close();
    // At debug the framework's route lines are there, one level down.
    const mapped = out.lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.context === 'RouterExplorer');
    expect(mapped.length).toBeGreaterThan(10);
    expect(new Set(mapped.map((l) => l.level))).toEqual(new Set([20]));
  });
});
