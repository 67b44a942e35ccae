import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type {
  ChannelAccountHealth,
  ChannelContext,
  ChannelHttpResponse,
  ChannelInboundMessage,
  ChannelInboundOutcome,
  ChannelReplyEvent,
} from '../../src/plugin-sdk';

/**
 * The gateway's side of a channel, scripted: what `inbound` answers is the test's `decide`, and everything the
 * plugin reports (inbound messages, health, log lines) is kept. The channel under test is the real plugin code
 * against its platform's fake server. Telegram's by default; another channel's spec subclasses it with its id:
 *
 *     class ScriptedChannelContext extends ScriptedContext { override readonly channelId = 'discord'; }
 */
export class ScriptedChannelContext implements ChannelContext {
  readonly channelId: string = 'telegram';
  readonly inbounds: ChannelInboundMessage[] = [];
  readonly healths: ChannelAccountHealth[] = [];
  readonly logs: string[] = [];
  readonly stateDir: string;
  private readonly controller = new AbortController();
  private listeners: ((config: Record<string, unknown>) => void)[] = [];
  readonly logger = {
    debug: (m: string) => void this.logs.push(`debug ${m}`),
    info: (m: string) => void this.logs.push(`info ${m}`),
    warn: (m: string) => void this.logs.push(`warn ${m}`),
    error: (m: string) => void this.logs.push(`error ${m}`),
  };

  constructor(
    private section: Record<string, unknown>,
    public decide: (message: ChannelInboundMessage) => ChannelInboundOutcome = (m) =>
      replyWith([{ type: 'final', text: `echo: ${m.text}` }]),
    stateDir?: string,
  ) {
    this.stateDir = stateDir ?? mkdtempSync(path.join(os.tmpdir(), 'clawgate-channel-'));
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  config<C>(): C {
    return this.section as C;
  }

  onConfigChange<C>(listener: (config: C) => void): void {
    this.listeners.push(listener as (config: Record<string, unknown>) => void);
  }

  change(section: Record<string, unknown>): void {
    this.section = section;
    for (const listener of this.listeners) listener(section);
  }

  inbound(message: ChannelInboundMessage): Promise<ChannelInboundOutcome> {
    this.inbounds.push(message);
    return Promise.resolve(this.decide(message));
  }

  /** Telegram speaks to its API through grammY, never through the gateway's guarded calls. */
  request(): Promise<ChannelHttpResponse> {
    return Promise.reject(new Error('the scripted context makes no HTTP calls'));
  }

  setHealth(health: ChannelAccountHealth): void {
    this.healths.push(health);
  }

  readonly deliveryFailures: string[] = [];

  /** The chat channels under test are `policy` channels: the gateway refuses them a turn, as here. */
  runTurn(): never {
    throw new Error(`runTurn: channel ${this.channelId} is not an "accounts" channel; its messages go through inbound()`);
  }

  reportDeliveryFailure(accountId: string, detail: string): void {
    this.deliveryFailures.push(`${accountId}: ${detail}`);
  }

  lastHealth(accountId: string): ChannelAccountHealth | undefined {
    return this.healths.filter((h) => h.accountId === accountId).at(-1);
  }
}

/** A `reply` outcome whose events come `gapMs` apart. */
export function replyWith(events: ChannelReplyEvent[], gapMs = 0): ChannelInboundOutcome {
  return {
    kind: 'reply',
    runId: 'run-scripted',
    agentId: 'main',
    sessionKey: 'agent:main:main',
    events: (async function* () {
      for (const event of events) {
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
        yield event;
      }
    })(),
  };
}
