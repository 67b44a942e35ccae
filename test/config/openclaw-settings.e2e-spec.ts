import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { REDACTED } from '../../src/common/secrets/redact-document';
import { startTestGateway, TestGateway } from '../support/gateway-harness';
import { API_CLIENT } from '../support/admin-client';
import { LogLines } from '../support/log-lines';

/**
 * A running gateway given an openclaw.json in OpenClaw's own shape (test/fixtures/openclaw-settings.json5):
 * the settings it only recognises are reported after the reload in /admin/config/status and once in the log,
 * and the credentials inside them never show in GET /admin/config. See docs/openclaw-compatibility.md.
 */

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'openclaw-settings.json5');

describe('recognised OpenClaw settings (e2e)', () => {
  const log = new LogLines();
  let gw: TestGateway;
  beforeAll(async () => {
    // Reload only on request, so the reload below is the one that reads the OpenClaw-shaped file.
    gw = await startTestGateway('{ gateway: { reload: { mode: "off" } }, agents: { list: [{ id: "main" }] } }', {
      log: { logFormat: 'json', logLevel: 'info', logTarget: log },
    });
  });
  afterAll(() => gw?.stop());

  it('applies the file on reload and lists the warnings, grouped by section, in /admin/config/status', async () => {
    expect((await request(gw.url).get('/admin/config/status').expect(200)).body.warnings).toEqual([]);
    const text = await fs.readFile(FIXTURE, 'utf8');
    await gw.writeConfig(text.replace('port: 18789,', 'port: 18789, reload: { mode: "off" },'));

    const reload = await request(gw.url).post('/admin/config/reload').set(API_CLIENT).expect(200);
    expect(reload.body.status).toBe('applied');
    const expected = [
      { path: '', message: 'recognised OpenClaw settings, not supported by clawgate (4): meta, wizard, env, commands' },
      {
        path: 'gateway',
        message: 'recognised OpenClaw settings, not supported by clawgate (2): gateway.controlUi, gateway.tailscale',
      },
      {
        path: 'agents',
        message:
          'recognised OpenClaw settings, not supported by clawgate (4): agents.defaults.compaction, agents.defaults.maxConcurrent, agents.list[0].subagents.allowAgents, agents.list[1].identity.theme',
      },
      { path: 'channels.whatsapp', message: 'no plugin provides channel whatsapp: its settings are not used' },
    ];
    expect(reload.body.warnings).toEqual(expected);
    const status = (await request(gw.url).get('/admin/config/status').expect(200)).body;
    expect(status.warnings).toEqual(expected);
    expect(status.lastError).toBeNull();
    const agents = (await request(gw.url).get('/admin/agents').expect(200)).body as Array<{ id: string }>;
    expect(agents.map((a) => a.id).sort()).toEqual(['helper', 'main']);

    // The log says it once for this reload, in the same words.
    const said = log.messages.filter((m) => m.includes('not supported by clawgate') || m.includes('no plugin provides'));
    expect(said).toEqual([
      'config warning: recognised OpenClaw settings, not supported by clawgate (4): meta, wizard, env, commands',
      `config warning: gateway: ${expected[1].message}`,
      `config warning: agents: ${expected[2].message}`,
      `config warning: channels.whatsapp: ${expected[3].message}`,
    ]);
  });

  it('keeps the recognised settings in GET /admin/config, their credentials redacted', async () => {
    const res = await request(gw.url).get('/admin/config').expect(200);
    const doc = res.body.document;
    expect(doc.commands).toEqual({ native: 'auto', restart: true });
    expect(doc.env.vars.EXAMPLE_PROVIDER_API_KEY).toBe(REDACTED);
    expect(doc.mcp.servers.notes).toEqual({ url: 'https://mcp.example.com/notes', headers: { Authorization: REDACTED } });
    // A ${VAR} reference names where a secret comes from, not the secret: it stays.
    expect(doc.channels.whatsapp.botToken).toBe('${EXAMPLE_TELEGRAM_BOT_TOKEN}');
    expect(res.text).not.toContain('literal-env-value-0001');
    expect(res.text).not.toContain('literal-mcp-value-0002');
  });
});
