import type { ChannelContext, ChannelInboundMessage, ChannelReplyEvent } from '../../plugin-sdk';
import { HttpChannel } from './http-channel';
import { httpMessagesRoute, receive } from './http-route';

/** A reply whose end the test decides: `end(event)` settles it. */
function pendingReply() {
  let end!: (event: Extract<ChannelReplyEvent, { type: 'final' | 'failed' }>) => void;
  const settled = new Promise<Extract<ChannelReplyEvent, { type: 'final' | 'failed' }>>((resolve) => (end = resolve));
  const events: AsyncIterable<ChannelReplyEvent> = {
    async *[Symbol.asyncIterator]() {
      yield await settled;
    },
  };
  return { events, end };
}

/** A channel context whose `inbound` records the message and answers with a reply the test ends. */
function fakeContext(section: unknown = { enabled: true, accounts: { desk: { id: 'desk', token: 'tok-desk-0001', usable: true } } }) {
  const handed: ChannelInboundMessage[] = [];
  const replies: Array<ReturnType<typeof pendingReply>> = [];
  const context = {
    channelId: 'http',
    config: () => structuredClone(section),
    onConfigChange: () => undefined,
    signal: new AbortController().signal,
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined },
    inbound: (message: ChannelInboundMessage) => {
      handed.push(message);
      const reply = pendingReply();
      replies.push(reply);
      return Promise.resolve({
        kind: 'reply' as const,
        runId: `run-${replies.length}`,
        agentId: 'support',
        sessionKey: 'agent:support:main',
        events: reply.events,
      });
    },
  } as unknown as ChannelContext;
  return { context, handed, replies };
}

describe('the http channel route', () => {
  const message = { peer: { kind: 'direct' as const, id: 'Alice' }, text: 'hello', threadId: 't1' };

  it('hands the message over as the account, a direct peer as a DM, the thread kept', async () => {
    const { context, handed } = fakeContext();
    const outcome = await receive(context, 'desk', { ...message, wait: false }, 5000);
    expect(outcome).toEqual({ status: 202, body: { runId: 'run-1', sessionKey: 'agent:support:main' } });
    expect(handed[0]).toMatchObject({ accountId: 'desk', peer: { kind: 'dm', id: 'Alice' }, threadId: 't1', text: 'hello' });
  });

  it('answers 202 "running" when the reply is not done within the wait', async () => {
    const { context } = fakeContext();
    expect(await receive(context, 'desk', message, 20)).toEqual({
      status: 202,
      body: { runId: 'run-1', sessionKey: 'agent:support:main', status: 'running' },
    });
  });

  it('answers 200 with the reply once the run completes, and with the error when it was aborted', async () => {
    const { context, replies } = fakeContext();
    const pending = receive(context, 'desk', message, 5000);
    await new Promise((r) => setImmediate(r));
    replies[0].end({ type: 'final', text: 'hi there' });
    expect(await pending).toEqual({
      status: 200,
      body: { runId: 'run-1', sessionKey: 'agent:support:main', agentId: 'support', status: 'completed', reply: 'hi there' },
    });

    const aborted = receive(context, 'desk', message, 5000);
    await new Promise((r) => setImmediate(r));
    replies[1].end({ type: 'failed', message: 'aborted by operator', status: 'aborted' });
    expect((await aborted).body).toMatchObject({ status: 'aborted', error: 'aborted by operator' });
  });

  it('refuses before the body: 404 while the channel is not running or not enabled, 401 for a wrong token', async () => {
    const channel = new HttpChannel();
    const route = httpMessagesRoute(channel);
    const head = (authorization?: string) => ({ method: 'POST', path: '/channels/http/messages', headers: { authorization }, query: {} });
    expect(() => route.precheck!(head('Bearer tok-desk-0001'))).toThrow('the http channel is not enabled');

    channel.start(fakeContext({ enabled: false, accounts: {} }).context);
    expect(() => route.precheck!(head('Bearer tok-desk-0001'))).toThrow('the http channel is not enabled');

    channel.start(fakeContext().context);
    expect(() => route.precheck!(head('Bearer tok-desk-0002'))).toThrow('a valid bearer token is required');
    expect(() => route.precheck!(head('Bearer tok-desk-0001'))).not.toThrow();
  });
});
