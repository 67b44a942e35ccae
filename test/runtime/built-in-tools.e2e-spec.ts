import { BUILT_IN_TOOL_NAMES } from '../../src/common/built-in-tools';
import { ToolRegistry } from '../../src/modules/runtime/tool-registry';
import { startTestGateway, TestGateway } from '../support/gateway-harness';

/**
 * The config accepts tool names in tools.allow/deny by BUILT_IN_TOOL_NAMES; the runtime offers whatever the
 * modules registered. Booting the real app is the only way to see the second list whole.
 */
describe('built-in tools (e2e)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway('{}');
  });
  afterAll(() => gw.stop());

  it('the ToolRegistry of a booted gateway holds exactly the built-in tool names', () => {
    const registered = gw.app.get(ToolRegistry).names();
    expect([...registered].sort()).toEqual([...BUILT_IN_TOOL_NAMES].sort());
  });
});
