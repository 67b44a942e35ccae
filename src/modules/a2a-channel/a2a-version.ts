import type { IncomingMessage } from 'node:http';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { A2A_MESSAGES } from './a2a-limits';

/** The `A2A-Version`s this endpoint answers (Major.Minor); an empty or missing one is a 0.3 client's. */
export const SUPPORTED_A2A_VERSIONS = ['0.3', '1.0'] as const;

const HEADER = 'a2a-version';
const QUERY = /[?&]A2A-Version=([^&#]*)/i;
const MAJOR_MINOR = /^(\d+)\.(\d+)(?:\.\d+)?$/;

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
 * Undefined when the version is served (compared by Major.Minor, so `1.0.2` is 1.0), else the -32009 error to
 * answer every call of the request with, naming the versions that are.
 */
export function versionProblem(version: string): AppError | undefined {
  if (version === '') return undefined;
  const match = MAJOR_MINOR.exec(version);
  if (match && (SUPPORTED_A2A_VERSIONS as readonly string[]).includes(`${Number(match[1])}.${Number(match[2])}`)) return undefined;
  return new AppError(ErrorCode.VersionNotSupported, A2A_MESSAGES.versionNotSupported, [
    { requestedVersion: version.slice(0, 64), supportedVersions: SUPPORTED_A2A_VERSIONS.join(',') },
  ]);
}
