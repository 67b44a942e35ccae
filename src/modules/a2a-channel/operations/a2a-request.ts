import type { A2aWireVersion } from '../../../common/a2a-protocol';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { jsonDepthExceeds } from '../../../common/json-depth';
import type { A2aFilePolicy } from '../../config';
import { invalidParams } from '../protocol/errors';
import { A2A_MESSAGES, MAX_PARAMS_DEPTH } from '../protocol/limits-and-messages';
import {
  type GetTaskInput,
  type ListTasksInput,
  parseExtendedCardParams,
  parseGetTaskParams,
  parseListTasksParams,
  parseSendMessageParams,
  parseTaskIdParams,
  type SendMessageInput,
  type TaskIdInput,
} from '../protocol/method-params';
import { a2aOperationOf, type A2aOperation, isStreamingOperation } from '../protocol/methods';
import { type RequestVersion, wireVersionOf } from '../protocol/versions';
import { wireCodec, type WireCodec } from '../protocol/wire-codec';
import { type CreatePushConfigInput, type PushConfigRefInput, readCreateParams, readPushConfigRef } from '../push/push-config-params';

/** Each operation's params as the domain reads them. */
interface A2aParamsOf {
  sendMessage: SendMessageInput;
  sendStreamingMessage: SendMessageInput;
  getTask: GetTaskInput;
  cancelTask: TaskIdInput;
  subscribeToTask: TaskIdInput;
  listTasks: ListTasksInput;
  getExtendedAgentCard: undefined;
  createPushConfig: CreatePushConfigInput;
  getPushConfig: PushConfigRefInput;
  listPushConfigs: PushConfigRefInput;
  deletePushConfig: PushConfigRefInput;
}

/**
 * One A2A call with its params as the domain reads them: the operation decides the params' type (an operation missing
 * from A2aParamsOf does not compile), and every switch over `operation` is exhaustive, so `tsc` lists what a new
 * method needs.
 */
export type A2aCall = { [O in A2aOperation]: { operation: O; params: A2aParamsOf[O] } }[A2aOperation];

/** The calls answered with a stream of events, and the others. */
export type A2aStreamCall = Extract<A2aCall, { operation: 'sendStreamingMessage' | 'subscribeToTask' }>;
export type A2aUnaryCall = Exclude<A2aCall, A2aStreamCall>;

/**
 * A request as a binding read it, once: the method name as called and its operation (absent when none has that name),
 * the version it is answered in with that version's codec, and the call, or the error that is its answer. The codec
 * is here even when the call is not, since an error is answered in the call's version too.
 */
export type A2aRequest = {
  called: string;
  operation?: A2aOperation;
  version: A2aWireVersion;
  codec: WireCodec;
} & ({ ok: true; call: A2aCall } | { ok: false; error: unknown });

/** What a binding knows of one call before it is read. */
export interface A2aRequestSource {
  /** The A2A method name (1.0 or 0.3), as called or as the route names it. */
  method: string;
  /**
   * What the request declared (`A2A-Version`, read by the binding against the versions it serves): the call is read and
   * answered in that version, else in the one its method name belongs to (wireVersionOf); a declared version not
   * served is the call's error, whatever it is.
   */
  version: RequestVersion;
  /**
   * The call's params as sent, asked for only once the method is known to be offered: an unsupported operation answers
   * as such whatever its params look like, and a binding's translation errors (a bad query parameter) come after the
   * version and method checks, exactly where a JSON-RPC caller's params errors come.
   */
  params: () => unknown;
  /** The binding can answer this call with an event stream (a single JSON-RPC call, an SSE route); else streaming is refused. */
  canStream: boolean;
  /** `channels.a2a.files` of the request's snapshot: a SendMessage's file parts are checked against it. */
  files: A2aFilePolicy;
}

/**
 * Reads one call (docs/a2a.md#limits-and-errors): the version's error, the method (-32601), the params' nesting depth,
 * a streaming method where the binding cannot stream (-32004), the version's codec (0.3 params become 1.0), then the
 * params as the operation's domain type (-32602 naming what is wrong). Never throws: a refusal is the request's `error`.
 */
export function readA2aRequest(source: A2aRequestSource): A2aRequest {
  const version = wireVersionOf(source.version, source.method);
  const codec = wireCodec(version);
  const operation = a2aOperationOf(source.method);
  const head = { called: source.method, operation, version, codec };
  try {
    return { ...head, ok: true, call: readCall(source, operation, codec) };
  } catch (error) {
    return { ...head, ok: false, error };
  }
}

function readCall(source: A2aRequestSource, operation: A2aOperation | undefined, codec: WireCodec): A2aCall {
  // Before the method: what a method means depends on the version it is asked in.
  if (source.version.problem) throw source.version.problem;
  if (!operation) throw new AppError(ErrorCode.MethodNotFound, 'Method not found');
  const raw = source.params();
  if (jsonDepthExceeds(raw, MAX_PARAMS_DEPTH)) throw invalidParams(`params are nested more than ${MAX_PARAMS_DEPTH} levels deep`);
  if (isStreamingOperation(operation) && !source.canStream)
    throw new AppError(ErrorCode.UnsupportedOperation, A2A_MESSAGES.streamNotBatched);
  const params = codec.params(operation, raw);
  switch (operation) {
    case 'sendMessage':
    case 'sendStreamingMessage':
      return { operation, params: parseSendMessageParams(params, source.files) };
    case 'getTask':
      return { operation, params: parseGetTaskParams(params) };
    case 'cancelTask':
    case 'subscribeToTask':
      return { operation, params: parseTaskIdParams(params) };
    case 'listTasks':
      return { operation, params: parseListTasksParams(params) };
    case 'getExtendedAgentCard':
      return { operation, params: parseExtendedCardParams(params) };
    case 'createPushConfig':
      return { operation, params: readCreateParams(params) };
    case 'getPushConfig':
    case 'deletePushConfig':
      return { operation, params: readPushConfigRef(params, true) };
    case 'listPushConfigs':
      return { operation, params: readPushConfigRef(params, false) };
    default: {
      const unknown: never = operation;
      throw new Error(`no params reader for A2A operation ${String(unknown)}`);
    }
  }
}
