import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { RequiresRole } from '../../../common/auth/requires-role.decorator';
import { ProblemDto } from '../../../common/errors/problem.dto';
import { A2aAdminService } from './admin.service';
import { A2aPeerListDto, A2aTaskDto, A2aTaskListDto, ListA2aTasksQueryDto } from './dto/admin.dto';
import { ListPushDeliveriesQueryDto, PushDeliveryListDto } from './dto/push-admin.dto';

const TASK_EXAMPLE = {
  id: '4b2f8e1a-6c3d-4e5f-9a0b-1c2d3e4f5a6b',
  peer: 'hermes',
  contextId: 'ctx-3f1c',
  agentId: 'support',
  sessionKey: 'agent:support:a2a:default:direct:hermes:ctx-3f1c',
  messageId: 'msg-1',
  state: 'TASK_STATE_COMPLETED',
  runId: '0b6f2a8e-3c1d-4f5e-9a7b-2d4c6e8f0a1b',
  createdAt: '2026-11-29T10:00:00.000Z',
  updatedAt: '2026-11-29T10:00:01.250Z',
  hasReply: true,
};

/** Operator view of the inbound A2A channel (`a2a/tasks`, `a2a/peers`; docs/a2a.md#admin-api), and the cancel of a running task. */
@ApiTags('a2a')
@Controller('admin/a2a')
export class A2aAdminController {
  constructor(private readonly admin: A2aAdminService) {}

  @Get('tasks')
  @RequiresRole('viewer')
  @ApiOperation({
    summary: 'List A2A tasks of all peers, newest first',
    description: 'Filters combine. Replies are not included in the list; GET a task to read its artifact.',
  })
  @ApiOkResponse({ type: A2aTaskListDto, description: 'A page of tasks, newest first.', example: { count: 1, tasks: [TASK_EXAMPLE] } })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'Invalid filter (problem+json names the field).' })
  listTasks(@Query() query: ListA2aTasksQueryDto): Promise<A2aTaskListDto> {
    return this.admin.listTasks(query);
  }

  @Get('tasks/:id')
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'One A2A task with its reply artifact' })
  @ApiParam({ name: 'id', description: 'Task id as returned to the peer.', example: TASK_EXAMPLE.id })
  @ApiOkResponse({
    type: A2aTaskDto,
    description: 'The task with its reply artifact.',
    example: { ...TASK_EXAMPLE, artifact: { artifactId: '9d8c7b6a-5f4e-4d3c-2b1a-0f9e8d7c6b5a', text: '[support] hello' } },
  })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No task with this id.' })
  getTask(@Param('id') id: string): Promise<A2aTaskDto> {
    return this.admin.getTask(id);
  }

  @Post('tasks/:id/cancel')
  @HttpCode(200)
  @RequiresRole('operator')
  @ApiOperation({
    summary: 'Cancel a running A2A task',
    description:
      'Aborts the task’s agent run (its model request is closed, the tool loop stops) and answers once the run has ' +
      'stopped, with the task CANCELED. 400 when the task is already over (also when its run finished before the abort reached it).',
  })
  @ApiParam({ name: 'id', description: 'Task id as returned to the peer.', example: TASK_EXAMPLE.id })
  @ApiOkResponse({
    type: A2aTaskDto,
    description: 'Cancelled: the task as it ended.',
    example: {
      ...TASK_EXAMPLE,
      state: 'TASK_STATE_CANCELED',
      hasReply: false,
      statusMessage: { messageId: 'c1', text: 'Task canceled by the gateway operator' },
    },
  })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'The task is already over.' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No task with this id.' })
  cancelTask(@Param('id') id: string): Promise<A2aTaskDto> {
    return this.admin.cancelTask(id);
  }

  @Get('push')
  @RequiresRole('viewer')
  @ApiOperation({
    summary: 'The push notification outbox: pending, delivered and failed deliveries, newest first',
    description:
      'One delivery per event and push config. Pending ones are retried with backoff for an hour (nextAttemptAt, lastError); ' +
      'finished ones are kept for 24 hours. Credentials and URL queries are never shown. docs/a2a-push.md.',
  })
  @ApiOkResponse({ type: PushDeliveryListDto, description: 'The push deliveries, newest first, with counts by state.' })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'Invalid state or limit (problem+json names the field).' })
  listPush(@Query() query: ListPushDeliveriesQueryDto): Promise<PushDeliveryListDto> {
    return this.admin.listPushDeliveries(query);
  }

  @Get('peers')
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'Configured A2A peers (never their tokens)' })
  @ApiOkResponse({
    type: A2aPeerListDto,
    description: 'Each peer and whether it can be used (never its tokens).',
    example: { enabled: true, peers: [{ name: 'hermes', usable: true, hasUrl: true, hasOutboundToken: false }] },
  })
  listPeers(): A2aPeerListDto {
    return this.admin.listPeers();
  }
}
