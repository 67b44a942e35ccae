import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeSlackServer, type FakeSlackApp } from '../../support/fake-slack';

/**
 * `kill -9` of the process running the Slack channel while the agent runs of 25 messages are under way, then a
 * restart on the same state dir. Every one of the 50 events of the burst was acknowledged to Slack (so Slack never
 * sends it again) before the kill; those whose run the kill cut short are answered after the restart from the
 * event journal, exactly once, by editing the message the reply had already posted. (The plugin alone here, so
 * that the kill lands inside its own work.)
 */
describe('slack channel: kill -9 during the runs of a burst', () => {
  let slack: FakeSlackServer;
  let child: ChildProcess | undefined;

  beforeEach(async () => {
    slack = await new FakeSlackServer({ ackTimeoutMs: 1000 }).start();
  });
  afterEach(async () => {
    child?.kill('SIGKILL');
    await slack.close();
  });

  function startChannel(app: FakeSlackApp, stateDir: string, env: Record<string, string> = {}): ChildProcess {
    return spawn(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', path.join(__dirname, 'fixtures', 'slack-channel-process.ts')],
      {
        env: {
          ...process.env,
          SLACK_API_URL: slack.apiUrl,
          SLACK_BOT_TOKEN: app.botToken,
          SLACK_APP_TOKEN: app.appToken,
          SLACK_STATE_DIR: stateDir,
          ...env,
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
  }

  it('answers each acknowledged event exactly once across the kill and the restart', async () => {
    const app = slack.addApp('burst');
    const stateDir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-slack-kill-'));
    const users = Array.from({ length: 25 }, (_, i) => slack.user(`User${i}`));

    // Round 0 is answered; the runs of round 1 stream their first step and are still running at the kill.
    child = startChannel(app, stateDir, { SLACK_HANG_ROUND: '1' });
    await slack.waitFor(app, () => slack.connections(app) > 0 || undefined, 90_000, 'the Socket Mode connection');
    const asked: { text: string; user: string }[] = [];
    for (let round = 0; round < 2; round++) {
      for (const [i, user] of users.entries()) {
        const text = `m${round}-${i}`;
        slack.dm(app, user, text);
        asked.push({ text, user: user.id });
      }
    }
    const finals = (): string[] =>
      app
        .botMessages()
        .map((m) => m.text)
        .filter((t) => t.startsWith('answer to') && !t.endsWith('…'));
    const started = (): number => app.botMessages().filter((m) => m.text.startsWith('answer to m1-')).length;
    await slack.waitFor(
      app,
      () => (finals().length === 25 && started() === 25 && app.acked.size >= 50) || undefined,
      60_000,
      'round 0 answered, round 1 under way, every event acknowledged',
    );
    // The runs of round 1 now wait for their agent. (A kill between the platform accepting a post and the process
    // recording its id is the one window where a restarted reply posts a second message: see docs/channels.md.)
    await new Promise((r) => setTimeout(r, 1000));
    const acknowledgedTexts = new Set(
      app.envelopes.filter((e) => app.acked.has(e.envelope_id)).map((e) => (e.payload.event as { text?: string }).text),
    );
    child.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    // Killed mid-run: each message of round 1 was acknowledged to Slack, and its reply is a first step only.
    for (const { text } of asked.filter((a) => a.text.startsWith('m1-'))) expect(acknowledgedTexts.has(text)).toBe(true);
    expect(finals()).toHaveLength(25);
    const envelopesBefore = app.envelopes.length;

    child = startChannel(app, stateDir);
    await slack.waitFor(app, () => finals().length === 50 || undefined, 60_000, 'all 50 answers');
    // Settle: an event answered twice would show as a second message.
    await new Promise((r) => setTimeout(r, 1500));

    for (const { text, user } of asked) {
      const replies = app
        .botMessages(user)
        .filter((m) => m.text.startsWith(`answer to ${text}`) && m.text.slice(`answer to ${text}`.length).match(/^( …)?$/));
      expect({ asked: text, replies: replies.map((r) => r.text) }).toEqual({ asked: text, replies: [`answer to ${text}`] });
    }
    expect(app.botMessages()).toHaveLength(50);
    // Slack sent none of the people's events again: the answers after the restart came from the journal (the
    // envelopes since are the echoes of the bot's own messages, which Slack sends to an app subscribed to messages).
    const resent = app.envelopes.slice(envelopesBefore).filter((e) => !(e.payload.event as { bot_id?: string }).bot_id);
    expect(resent).toEqual([]);
  }, 240_000);
});
