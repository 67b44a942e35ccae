import { Role } from '@a2a-js/sdk';
import type { Message, Part, SendMessageRequest, Task } from '@a2a-js/sdk';
import { Client, ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';

/**
 * The @a2a-js/sdk client as a peer would set it up against a gateway, and the SDK-typed values the interop suites send.
 * A spec importing this must first stub `jose` (`jest.mock('jose', () => ({}))`): the SDK's CommonJS build loads it
 * (ESM-only) for card signatures, which jest's CommonJS sandbox cannot require.
 */

/** One request the SDK made: where to, with which headers. */
export interface SeenRequest {
  url: string;
  method: string;
  headers: Headers;
}

/** A fetch that adds the peer's bearer token — the way a deployment adds a credential — and records each request. */
export function fetchWithToken(token: string, seen: SeenRequest[] = []): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('Authorization', `Bearer ${token}`);
    seen.push({ url: input instanceof Request ? input.url : input.toString(), method: init?.method ?? 'GET', headers });
    return fetch(input, { ...init, headers });
  };
}

/**
 * A client made from the gateway's Agent Card, `binding`'s transport given our fetch; the SDK picks the card's
 * interface itself. JSON-RPC is the card's first interface, which a client without a preference takes; HTTP+JSON is
 * asked for, as a peer that prefers it would.
 */
export function sdkClient(gatewayUrl: string, fetchImpl: typeof fetch, binding: 'JSONRPC' | 'HTTP+JSON'): Promise<Client> {
  const overrides =
    binding === 'JSONRPC'
      ? { transports: [new JsonRpcTransportFactory({ fetchImpl })] }
      : { transports: [new RestTransportFactory({ fetchImpl })], preferredTransports: [binding] };
  return new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, overrides)).createFromUrl(gatewayUrl);
}

export const sdkText = (t: string): Part => ({ content: { $case: 'text', value: t }, metadata: undefined, filename: '', mediaType: '' });

/** A file part the SDK way: raw bytes, with the name and media type beside them. */
export const sdkFile = (bytes: Buffer, filename: string, mediaType: string): Part => ({
  content: { $case: 'raw', value: bytes },
  metadata: undefined,
  filename,
  mediaType,
});

export const sdkMessage = (t: string, contextId = '', extraParts: Part[] = [], taskId = ''): Message => ({
  messageId: `msg-${Math.random().toString(36).slice(2)}`,
  contextId,
  taskId,
  role: Role.ROLE_USER,
  parts: [sdkText(t), ...extraParts],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

export interface SendOptions {
  contextId?: string;
  returnImmediately?: boolean;
  tenant?: string;
  /** Parts sent after the text (file parts). */
  files?: Part[];
  /** The task a message answers (a task waiting in INPUT_REQUIRED). */
  taskId?: string;
  historyLength?: number;
}

export const sdkSendRequest = (t: string, options: SendOptions = {}): SendMessageRequest => ({
  tenant: options.tenant ?? '',
  message: sdkMessage(t, options.contextId, options.files, options.taskId),
  configuration:
    options.returnImmediately || options.historyLength !== undefined
      ? {
          acceptedOutputModes: [],
          taskPushNotificationConfig: undefined,
          historyLength: options.historyLength,
          returnImmediately: options.returnImmediately ?? false,
        }
      : undefined,
  metadata: undefined,
});

/** SendMessage through the client; the gateway always answers with a task. */
export async function sendTask(client: Client, t: string, options: SendOptions = {}): Promise<Task> {
  const result = await client.sendMessage(sdkSendRequest(t, options));
  if (!('status' in result)) throw new Error('expected a task, got a message');
  return result;
}

/** The text of a task's artifacts. */
export const artifactText = (task: Task) =>
  task.artifacts
    .flatMap((a) => a.parts)
    .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
    .join('');
