import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { toolResultFromError, toolStatusOf } from './tool-result';

describe('tool result mapping (the tool edge)', () => {
  it.each<[ErrorCode, string]>([
    [ErrorCode.Forbidden, 'forbidden'],
    [ErrorCode.Unauthenticated, 'forbidden'],
    [ErrorCode.NotFound, 'not_found'],
    [ErrorCode.TaskNotFound, 'not_found'],
    [ErrorCode.UpstreamTimeout, 'timeout'],
    [ErrorCode.Conflict, 'error'],
    [ErrorCode.BadRequest, 'error'],
    [ErrorCode.UpstreamFailed, 'error'],
    [ErrorCode.Internal, 'error'],
  ])('maps %s to status %s', (code, status) => {
    expect(toolStatusOf(code)).toBe(status);
  });

  it('gives every code a status the tool result type allows', () => {
    const allowed = new Set(['forbidden', 'not_found', 'timeout', 'error']);
    for (const code of Object.values(ErrorCode)) expect(allowed.has(toolStatusOf(code))).toBe(true);
  });

  it('puts the detail in `error`, after the extra fields and a prefix', () => {
    expect(toolResultFromError(new AppError(ErrorCode.NotFound, 'no peer "x"'), { peer: 'x' }, 'a2a_send failed: ')).toEqual({
      status: 'not_found',
      peer: 'x',
      error: 'a2a_send failed: no peer "x"',
    });
  });
});
