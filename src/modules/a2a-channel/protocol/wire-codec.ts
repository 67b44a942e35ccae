import type { A2aWireVersion } from '../../../common/a2a-protocol';
import type { A2aOperation } from './methods';
import { coreResultToV03, errorToV03, streamItemToV03, v03ParamsToCore } from './v03-wire';
import type { JsonRpcErrorObject } from './errors';

/**
 * How one call's params, result and error cross the wire in the version it is answered in. The task service
 * speaks 1.0; every other version is a translation on the way in and out, so the service keeps one model.
 */
export interface WireCodec {
  readonly version: A2aWireVersion;
  /** The params in their 1.0 form. */
  params(operation: A2aOperation, params: unknown): unknown;
  /** The task service's result in this version's form. */
  result(operation: A2aOperation, result: unknown): unknown;
  error(error: JsonRpcErrorObject): JsonRpcErrorObject;
  /** One stream item (the 1.0 StreamResponse JSON) as this version's result JSON. */
  streamItem(body: string, closes: boolean): string;
}

const same = <T>(_operation: A2aOperation, value: T): T => value;

const CODECS: Readonly<Record<A2aWireVersion, WireCodec>> = Object.freeze({
  '1.0': { version: '1.0', params: same, result: same, error: (error) => error, streamItem: (body) => body },
  '0.3': { version: '0.3', params: v03ParamsToCore, result: coreResultToV03, error: errorToV03, streamItem: streamItemToV03 },
});

export function wireCodec(version: A2aWireVersion): WireCodec {
  return CODECS[version];
}
