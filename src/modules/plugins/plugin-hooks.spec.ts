import { GatewayMetrics } from '../metrics';
import { PluginHookDispatcher } from './plugin-hooks';

const event = { agentId: 'main', sessionKey: 'agent:main:main', tool: 'weather', args: {} };

describe('PluginHookDispatcher', () => {
  let metrics: GatewayMetrics;
  beforeEach(() => {
    metrics = new GatewayMetrics();
  });

  it('skips a handler that throws or overruns its budget, counts it, and still hears the others', async () => {
    const hooks = new PluginHookDispatcher(metrics, 30);
    const heard: string[] = [];
    hooks.add('thrower', 'before_tool_call', () => {
      throw new Error('nope');
    });
    hooks.add('sleeper', 'before_tool_call', () => new Promise(() => undefined));
    hooks.add('listener', 'before_tool_call', (e) => {
      heard.push((e as typeof event).tool);
    });
    await expect(hooks.emit('before_tool_call', event)).resolves.toEqual({});
    expect(heard).toEqual(['weather']);
    const text = await metrics.text();
    expect(text).toContain('clawgate_plugin_hook_failures_total{plugin="thrower",hook="before_tool_call",reason="error"} 1');
    expect(text).toContain('clawgate_plugin_hook_failures_total{plugin="sleeper",hook="before_tool_call",reason="timeout"} 1');
  });

  it('before_tool_call: the first refusal in registration order decides; other hooks cannot refuse', async () => {
    const hooks = new PluginHookDispatcher(metrics, 1000);
    hooks.add('quiet', 'before_tool_call', () => undefined);
    hooks.add('first', 'before_tool_call', async () => ({ refuse: 'first says no' }));
    hooks.add('second', 'before_tool_call', () => ({ refuse: 'second says no' }));
    hooks.add('first', 'before_model_call', () => ({ refuse: 'ignored' }));
    await expect(hooks.emit('before_tool_call', event)).resolves.toEqual({ refusal: { plugin: 'first', reason: 'first says no' } });
    await expect(
      hooks.emit('before_model_call', { agentId: 'main', sessionKey: 'agent:main:main', model: 'echo/default' }),
    ).resolves.toEqual({});
  });

  it('has() is false once the last handler of a hook is removed with its plugin', () => {
    const hooks = new PluginHookDispatcher(metrics, 1000);
    hooks.add('a', 'after_run', () => undefined);
    hooks.add('b', 'after_run', () => undefined);
    hooks.removePlugin('a');
    expect(hooks.has('after_run')).toBe(true);
    hooks.removePlugin('b');
    expect(hooks.has('after_run')).toBe(false);
  });
});
