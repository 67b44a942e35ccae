import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RequiresRole } from '../../common/auth/requires-role.decorator';
import { ProblemDto } from '../../common/errors/problem.dto';
import { A2aSendService } from './a2a-send.service';
import { A2aSendDto, A2aSendResultDto } from './dto/a2a-send.dto';

/** The operator sending a task to a configured A2A peer (docs/outbound.md#1-sending-a-task-to-a-peer). */
@ApiTags('outbound')
@Controller('admin/a2a/peers')
export class A2aSendController {
  constructor(private readonly sender: A2aSendService) {}

  @Post(':name/send')
  @HttpCode(200)
  @RequiresRole('operator')
  @ApiOperation({
    summary: 'Send a task to an A2A peer',
    description:
      'SendMessage to the peer’s configured url (contextId ctx-oc-<peer>, returnImmediately), retried once as message/send ' +
      'when the peer answers -32601. With wait=true, polls GetTask until the task settles or channels.a2a.replyTimeoutMs. ' +
      'The outcome is recorded in the session agent:<default agent>:a2a-outbound.',
  })
  @ApiParam({ name: 'name', description: 'Peer name (channels.a2a.peers.<name>).', example: 'hermes' })
  @ApiBody({
    type: A2aSendDto,
    examples: {
      fireAndForget: { summary: 'Accepted at once', value: { text: 'Summarize the open tickets of this week.' } },
      waitForReply: { summary: 'Wait for the reply', value: { text: 'Summarize the open tickets of this week.', wait: true } },
    },
  })
  @ApiOkResponse({
    type: A2aSendResultDto,
    description: 'The peer accepted the message: its task, and the reply when it answered within the wait.',
    examples: {
      completed: {
        summary: 'wait=true, answered',
        value: {
          status: 'ok',
          taskId: '4b2f8e1a-6c3d-4e5f-9a0b-1c2d3e4f5a6b',
          state: 'TASK_STATE_COMPLETED',
          reply: '[support] 3 tickets are open.',
        },
      },
      accepted: {
        summary: 'wait=false',
        value: { status: 'accepted', taskId: '4b2f8e1a-6c3d-4e5f-9a0b-1c2d3e4f5a6b', state: 'TASK_STATE_WORKING' },
      },
    },
  })
  @ApiResponse({ status: 400, type: ProblemDto, description: 'Malformed body (unknown field, blank text).' })
  @ApiResponse({ status: 404, type: ProblemDto, description: 'No such peer.' })
  @ApiResponse({
    status: 409,
    type: ProblemDto,
    description: 'Outbound impossible by config: channel disabled, peer without url, unset token variable.',
  })
  @ApiResponse({ status: 502, type: ProblemDto, description: 'The peer refused, redirected, answered garbage or could not be reached.' })
  @ApiResponse({ status: 504, type: ProblemDto, description: 'The peer did not answer SendMessage within 30 s.' })
  send(@Param('name') name: string, @Body() body: A2aSendDto): Promise<A2aSendResultDto> {
    return this.sender.sendAsOperator(name, body);
  }
}
