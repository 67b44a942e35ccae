import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { JSON_RPC_CODE_BY_ERROR, jsonRpcErrorOf } from './json-rpc';

describe('JSON-RPC error mapping (the A2A edge)', () => {
  it.each<[ErrorCode, number]>([
    [ErrorCode.InvalidParams, -32602],
    [ErrorCode.BadRequest, -32602],
    [ErrorCode.MethodNotFound, -32601],
    [ErrorCode.TaskNotFound, -32001],
    [ErrorCode.UnsupportedOperation, -32004],
    [ErrorCode.Unavailable, -32000],
    [ErrorCode.RateLimited, -32000],
    [ErrorCode.Internal, -32000],
    [ErrorCode.NotFound, -32000],
    [ErrorCode.UpstreamFailed, -32000],
  ])('maps %s to %i with the detail as message', (code, rpcCode) => {
    expect(jsonRpcErrorOf(new AppError(code, 'what happened'))).toEqual({ code: rpcCode, message: 'what happened' });
  });

  it('covers every code of the enum', () => {
    expect(Object.keys(JSON_RPC_CODE_BY_ERROR).sort()).toEqual(Object.values(ErrorCode).sort());
  });
});
