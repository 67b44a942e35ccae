import { invalidParams } from './errors';

/**
 * The fields of each A2A request message that clawgate reads and whose a2a.proto name differs from its JSON name
 * (lowerCamelCase). ProtoJSON parsers take either spelling of a field, and some clients (conformance tools among them)
 * send the proto one; fields without an underscore in a2a.proto (`id`, `role`, `parts`, `status`, ...) are the same
 * in both spellings and need no entry.
 */
export const PROTO_NAMED_FIELDS = {
  /** SendMessageRequest.configuration (SendMessageConfiguration). */
  sendConfiguration: ['returnImmediately', 'historyLength', 'taskPushNotificationConfig'],
  /** Message. */
  message: ['messageId', 'contextId', 'taskId'],
  /** Part. */
  part: ['mediaType'],
  /** GetTaskRequest. */
  getTask: ['historyLength'],
  /** ListTasksRequest. */
  listTasks: ['contextId', 'pageSize', 'pageToken', 'historyLength', 'statusTimestampAfter', 'includeArtifacts'],
} as const satisfies Record<string, readonly string[]>;

/** Names already turned: the field names are a fixed few, asked for on every request. */
const protoNames = new Map<string, string>();

/** `historyLength` → `history_length`: how protoc derives the JSON name, run backwards. */
export function protoNameOf(jsonName: string): string {
  let name = protoNames.get(jsonName);
  if (name === undefined) {
    name = jsonName.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    // Bounded: callers pass names of this file's lists and of the REST routes' query parameters only.
    if (protoNames.size < 256) protoNames.set(jsonName, name);
  }
  return name;
}

/**
 * The object with every field of `jsonNames` under its JSON name, whichever spelling the caller used. A field sent
 * under both spellings is -32602 naming both (a ProtoJSON parser refuses it too: it is one field given twice). The
 * caller's object is not changed; it is returned as it is when it uses no proto name. `at` prefixes the names in the
 * error ("message." for a field of params.message).
 */
export function withJsonFieldNames(object: Record<string, unknown>, jsonNames: readonly string[], at = ''): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const jsonName of jsonNames) {
    const protoName = protoNameOf(jsonName);
    if (!Object.prototype.hasOwnProperty.call(object, protoName)) continue;
    if (Object.prototype.hasOwnProperty.call(object, jsonName)) {
      throw invalidParams(`${at}${jsonName} and ${at}${protoName} are the same field: send it once`);
    }
    out ??= { ...object };
    out[jsonName] = out[protoName];
    delete out[protoName];
  }
  return out ?? object;
}
