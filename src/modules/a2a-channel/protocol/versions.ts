import type { IncomingMessage } from 'node:http';
import { A2A_WIRE_VERSIONS, type A2aWireVersion } from '../../../common/a2a-protocol';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { A2A_MESSAGES } from './limits-and-messages';

/** The `A2A-Version`s this endpoint answers (Major.Minor), as -32009 lists them. */
export const SUPPORTED_A2A_VERSIONS = [...A2A_WIRE_VERSIONS].sort();
/**
 * The HTTP+JSON binding speaks 1.0 only: its routes and bodies are the 1.0 ones, and nothing translates them
 * to or from 0.3 (docs/decisions.md#a2a-channel). A request declaring 0.3 there gets -32009's error.
 */
export const REST_A2A_VERSIONS: readonly A2aWireVersion[] = ['1.0'];

const HEADER = 'a2a-version';
const QUERY = /[?&]A2A-Version=([^&#]*)/i;
const MAJOR_MINOR = /^(\d+)\.(\d+)(?:\.\d+)?$/;

/** What a request says about its version: the one it declared, or the -32009 every call of it gets. */
export interface RequestVersion {
  /** Absent when the request declared none (then each call's method name decides; see wireVersionOf). */
  declared?: A2aWireVersion;
  problem?: AppError;
}

/**
 * The `A2A-Version` a request asks for: the header, else the query parameter (the specification allows
 * either); '' when neither is given.
 */
export function requestedA2aVersion(req: Pick<IncomingMessage, 'headers' | 'url'>): string {
  const header = req.headers[HEADER];
  if (typeof header === 'string') return header.trim();
  const match = QUERY.exec(req.url ?? '');
  if (!match) return '';
  try {
    return decodeURIComponent(match[1]).trim();
  } catch {
    return match[1];
  }
}

/**
 * A requested version read by Major.Minor (so `1.0.2` is 1.0): a served one is `declared`, '' declares
 * nothing, anything else is the -32009 problem naming the versions that are served. `served`: the versions
 * of the binding that asks (JSON-RPC answers 0.3 and 1.0; HTTP+JSON only 1.0, see REST_A2A_VERSIONS).
 */
export function readRequestVersion(version: string, served: readonly A2aWireVersion[] = SUPPORTED_A2A_VERSIONS): RequestVersion {
  if (version === '') return {};
  const match = MAJOR_MINOR.exec(version);
  const majorMinor = match ? `${Number(match[1])}.${Number(match[2])}` : '';
  const declared = served.find((v) => v === majorMinor);
  if (declared) return { declared };
  return {
    problem: new AppError(ErrorCode.VersionNotSupported, A2A_MESSAGES.versionNotSupported, [
      { requestedVersion: version.slice(0, 64), supportedVersions: [...served].sort().join(',') },
    ]),
  };
}

/**
 * The version one call is read and answered in: the declared one; without a declaration, 0.3 for a method
 * named the 0.3 way (`message/send`, `tasks/get`: a `/` in the name) and 1.0 for every other name
 * (`SendMessage`). The specification reads a missing `A2A-Version` as 0.3, but a 1.0 method name has no
 * meaning in 0.3, so a call that uses one can only be meant as 1.0 (docs/decisions.md#a2a-channel). A request
 * that declared a version not served gets its -32009 in the 1.0 form, whose ErrorInfo lists the versions that are.
 */
export function wireVersionOf(version: RequestVersion, method: string): A2aWireVersion {
  if (version.problem) return '1.0';
  return version.declared ?? (method.includes('/') ? '0.3' : '1.0');
}
