import { Injectable, OnModuleInit } from '@nestjs/common';
import { BUILT_IN_TOOLS } from '../../../common/built-in-tools';
import { ToolRegistry } from '../../runtime';
import { A2aTaskService } from './task.service';

/** The longest question a run may put to the peer (it becomes the task's status message). */
export const MAX_QUESTION_CHARS = 4000;

export const REQUEST_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    question: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_QUESTION_CHARS,
      pattern: '\\S',
      description: 'What you need to know from the remote agent that sent this task, in plain text.',
    },
  },
  required: ['question'],
  additionalProperties: false,
} as const;

/**
 * `request_input`: a per-run tool, offered only to the runs of A2A tasks (the channel names it when it starts
 * them), since only there is someone to ask: the peer. The task service does the asking (docs/a2a.md#multi-turn-input_required).
 */
@Injectable()
export class RequestInputTool implements OnModuleInit {
  constructor(
    private readonly registry: ToolRegistry,
    private readonly tasks: A2aTaskService,
  ) {}

  onModuleInit(): void {
    this.registry.register<{ question: string }>({
      name: BUILT_IN_TOOLS.requestInput,
      description:
        'Ask the remote agent that sent this task a question and wait for its answer (the task shows as input-required). ' +
        'Use it only when you cannot finish without that information.',
      parameters: REQUEST_INPUT_SCHEMA,
      perRun: true,
      handler: (ctx, args) => this.tasks.requestInput(ctx, args.question),
    });
  }
}
