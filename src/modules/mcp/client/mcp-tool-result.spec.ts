import { toolResultOf } from './mcp-tool-result';

describe('toolResultOf', () => {
  it('joins text, notes what a model reads no text of, and keeps structured content when there is no text', () => {
    expect(
      toolResultOf(
        {
          content: [
            { type: 'text', text: 'one' },
            { type: 'image', data: Buffer.from('png!').toString('base64'), mimeType: 'image/png' },
            { type: 'resource', resource: { uri: 'file:///a.txt', text: 'inside' } },
            { type: 'resource_link', uri: 'file:///b', name: 'b' },
          ],
        },
        1000,
        'x.',
      ),
    ).toEqual({
      status: 'ok',
      result: 'one\n[image image/png, 4 bytes, not shown]\n[resource file:///a.txt]\ninside\n[resource b: file:///b]',
    });
    expect(toolResultOf({ content: [], structuredContent: { sum: 3 } }, 1000, 'x.')).toEqual({ status: 'ok', structured: { sum: 3 } });
  });

  it('cuts at the byte limit without splitting a character, and says so', () => {
    const result = toolResultOf({ content: [{ type: 'text', text: 'é'.repeat(1000) }] }, 1025, 'mcp.servers.s.');
    expect(result.result).toBe('é'.repeat(512));
    expect(result.truncated).toBe('976 bytes of the result were cut: the model reads at most 1025 bytes (mcp.servers.s. maxOutputBytes)');
  });

  it('an isError result is an error result with the server text', () => {
    expect(toolResultOf({ content: [{ type: 'text', text: 'no such file' }], isError: true }, 100, 'x.')).toEqual({
      status: 'error',
      error: 'no such file',
    });
  });
});
