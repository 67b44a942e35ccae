import type { ServerResponse } from 'node:http';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { JsonParseError, MCP_RPC_CODE_BY_ERROR, mcpErrorOf, SESSION_NOT_FOUND, writeMcpHttpError } from './mcp-errors';

describe('the MCP edge error table', () => {
  it('covers every code with a JSON-RPC error number', () => {
    for (const code of Object.values(ErrorCode)) expect(MCP_RPC_CODE_BY_ERROR[code]).toEqual(expect.any(Number));
  });

  it('maps the codes an MCP client acts on to the numbers the protocol gives them', () => {
    expect(MCP_RPC_CODE_BY_ERROR[ErrorCode.InvalidParams]).toBe(-32602);
    expect(MCP_RPC_CODE_BY_ERROR[ErrorCode.MethodNotFound]).toBe(-32601);
    expect(MCP_RPC_CODE_BY_ERROR[ErrorCode.BadRequest]).toBe(-32600);
    expect(MCP_RPC_CODE_BY_ERROR[ErrorCode.NotFound]).toBe(SESSION_NOT_FOUND);
    expect(MCP_RPC_CODE_BY_ERROR[ErrorCode.Internal]).toBe(-32603);
    expect(mcpErrorOf(new AppError(ErrorCode.InvalidParams, 'arguments.message is required'))).toMatchObject({
      code: -32602,
      message: expect.stringContaining('arguments.message is required'),
    });
  });

  it('writes an HTTP-level refusal as a JSON-RPC error with id null, -32700 for a body that is not JSON', () => {
    const written: { status?: number; headers?: Record<string, string>; body?: string } = {};
    const res = {
      writeHead: (status: number, headers: Record<string, string>) => Object.assign(written, { status, headers }),
      end: (body: string) => Object.assign(written, { body }),
    } as unknown as ServerResponse;
    writeMcpHttpError(res, new JsonParseError('Parse error: the body is not JSON'));
    expect(written.status).toBe(400);
    expect(JSON.parse(written.body!)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error: the body is not JSON' },
      id: null,
    });
    writeMcpHttpError(res, new AppError(ErrorCode.RateLimited, 'Rate limit reached'));
    expect(written.status).toBe(429);
    expect(JSON.parse(written.body!).error.code).toBe(-32000);
  });
});
