import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FakeDiscordServer, type DMessage, type FakeDiscordBot } from '../../support/fake-discord';
import { waitUntil } from '../../support/wait-until';

/**
 * `kill -9` of the process running the Discord channel while the agent runs of 25 messages are under way, then a
 * restart on the same state dir. Every message of the burst was dispatched to the bot over the Gateway before the
 * kill; the restarted bot opens a new session (IDENTIFY), to which Discord replays nothing, so the messages whose
 * run the kill cut short are answered from the account's message journal, exactly once, by editing the message the
 * reply had already posted. (The plugin alone here, so that the kill lands inside its own work.)
 */
describe('discord channel: kill -9 during the runs of a burst', () => {
  let discord: FakeDiscordServer;
  let child: ChildProcess | undefined;

  beforeEach(async () => {
    discord = await new FakeDiscordServer().start();
  });
  afterEach(async () => {
    child?.kill('SIGKILL');
    await discord.close();
  });

  function startChannel(bot: FakeDiscordBot, stateDir: string, env: Record<string, string> = {}): ChildProcess {
    return spawn(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', path.join(__dirname, 'fixtures', 'discord-channel-process.ts')],
      {
        env: { ...process.env, DISCORD_API: discord.api, DISCORD_TOKEN: bot.token, DISCORD_STATE_DIR: stateDir, ...env },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
  }

  it('answers each dispatched message exactly once across the kill and the restart', async () => {
    const bot = discord.addBot('Burst');
    const stateDir = mkdtempSync(path.join(os.tmpdir(), 'clawgate-discord-kill-'));
    const users = Array.from({ length: 25 }, (_, i) => FakeDiscordServer.user(`User${i}`));

    // Round 0 is answered; the runs of round 1 stream their first step and are still running at the kill.
    child = startChannel(bot, stateDir, { DISCORD_HANG_ROUND: '1' });
    await waitUntil(() => discord.liveConnections(bot) > 0 && bot.handshakes.length > 0, 90_000, 'the Gateway session');
    const asked: DMessage[] = [];
    for (let round = 0; round < 2; round++) {
      for (const [i, user] of users.entries()) asked.push(discord.dm(bot, user, `m${round}-${i}`));
    }
    const texts = (): string[] => discord.botMessages(bot).map((m) => m.content);
    const finals = (): number => texts().filter((t) => t.startsWith('answer to') && !t.endsWith('…')).length;
    const started = (): number => texts().filter((t) => t.startsWith('answer to m1-')).length;
    await waitUntil(() => finals() === 25 && started() === 25, 60_000, 'round 0 answered and round 1 under way');
    // The runs of round 1 now wait for their agent. (A kill between the platform accepting a post and the process
    // recording its id is the one window where a restarted reply posts a second message: see docs/channels.md.)
    await new Promise((r) => setTimeout(r, 1000));
    child.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    expect(finals()).toBe(25);

    child = startChannel(bot, stateDir);
    await waitUntil(() => finals() === 50, 60_000, 'all 50 answers');
    // Settle: a message answered twice would show as a second reply.
    await new Promise((r) => setTimeout(r, 1500));

    for (const message of asked) {
      const replies = discord.botMessages(bot, message.channel_id).filter((m) => m.replyTo === message.id);
      expect({ asked: message.content, replies: replies.map((r) => r.content) }).toEqual({
        asked: message.content,
        replies: [`answer to ${message.content}`],
      });
    }
    expect(discord.botMessages(bot)).toHaveLength(50);
    // The restart was a new session: nothing was replayed by Discord, the journal had it all.
    expect(bot.handshakes).toEqual(['IDENTIFY', 'IDENTIFY']);
  }, 240_000);
});
