import { CONTEXT_ID_PATTERN } from './agent-tools';
import { mcpPeerId } from './ask-agent.service';

describe('mcpPeerId', () => {
  it('keeps every key to its own conversations, whatever dots key names and context ids hold', () => {
    // Key names (gateway-http.schema: ^[a-z0-9][a-z0-9._-]{0,63}$) and context ids may both contain ".".
    expect(CONTEXT_ID_PATTERN.test('b.x1')).toBe(true);
    expect(mcpPeerId('team', 'b.x1')).not.toBe(mcpPeerId('team.b', 'x1'));
  });

  it('splits back at the first ":" (key names never hold one)', () => {
    const id = mcpPeerId('team.b', 'c.d');
    expect(id.slice(0, id.indexOf(':'))).toBe('team.b');
  });
});
