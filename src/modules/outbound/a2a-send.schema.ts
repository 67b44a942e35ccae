import { PEER_NAME_INPUT_PATTERN } from '../config';

/** Longest text one a2a_send carries; the receiving gateway cuts at 64 KiB anyway (docs/a2a.md#sending-tasks). */
export const A2A_SEND_MAX_TEXT = 65_536;

/** JSON Schema of the `a2a_send` tool's arguments; the ToolRegistry validates calls against it (strict). */
export const A2A_SEND_SCHEMA = {
  type: 'object',
  properties: {
    peer: {
      type: 'string',
      pattern: PEER_NAME_INPUT_PATTERN,
      description: 'Name of a configured A2A peer (channels.a2a.peers) that has a url. An unknown name answers with the list.',
    },
    text: {
      type: 'string',
      minLength: 1,
      maxLength: A2A_SEND_MAX_TEXT,
      pattern: '\\S',
      description: 'The task for the remote agent, in plain text.',
    },
    wait: {
      type: 'boolean',
      default: false,
      description: 'Wait for the reply (up to channels.a2a.replyTimeoutMs) instead of returning once the peer accepted the task.',
    },
  },
  required: ['peer', 'text'],
  additionalProperties: false,
} as const;

export interface A2aSendArgs {
  peer: string;
  text: string;
  wait?: boolean;
}
