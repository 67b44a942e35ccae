import { once } from 'node:events';
import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { ProblemDto } from '../../common/errors/problem.dto';
import {
  ListSessionsQueryDto,
  SessionEntryDto,
  SessionHistoryDto,
  SessionHistoryQueryDto,
  SessionListDto,
  TranscriptLineDto,
} from './dto/session.dto';
import { SessionsAdminService } from './sessions-admin.service';
import { RequiresRole } from '../../common/auth/requires-role.decorator';

const KEY_PARAM = {
  name: 'key',
  description: 'Session key `agent:<agentId>:<rest>`, URL-encoded (case-insensitive; stored lowercase).',
  example: 'agent:main:main',
};
const BAD_REQUEST = { type: ProblemDto, description: 'Malformed key or query (problem+json names the field).' };
const NOT_FOUND = { type: ProblemDto, description: 'No session with this key.' };

/** Read-only view of every agent's sessions for operators. */
@ApiTags('sessions')
@ApiExtraModels(TranscriptLineDto)
@Controller('admin/sessions')
export class SessionsController {
  constructor(private readonly sessions: SessionsAdminService) {}

  @Get()
  @RequiresRole('viewer')
  @ApiOperation({
    summary: 'List sessions, most recently updated first, a page at a time',
    description:
      'All configured agents unless agentId is given. Follow `nextCursor` (as `cursor`) for the next page; each page is ' +
      'one index range read, however many sessions exist. Unknown query fields are rejected.',
  })
  @ApiOkResponse({
    type: SessionListDto,
    description: 'A page of sessions; `nextCursor` continues.',
    example: {
      count: 1,
      sessions: [
        {
          sessionKey: 'agent:main:main',
          sessionId: '6f1c2a9e-3b4d-4c5e-8f70-1a2b3c4d5e6f',
          agentId: 'main',
          label: 'research',
          createdAt: '2026-11-29T10:00:00.000Z',
          updatedAt: '2026-11-29T10:05:00.000Z',
        },
      ],
    },
  })
  @ApiBadRequestResponse(BAD_REQUEST)
  list(@Query() query: ListSessionsQueryDto): Promise<SessionListDto> {
    return this.sessions.list(query);
  }

  @Get(':key')
  @RequiresRole('viewer')
  @ApiOperation({ summary: 'One session entry' })
  @ApiParam(KEY_PARAM)
  @ApiOkResponse({
    type: SessionEntryDto,
    description: 'The session entry.',
    example: {
      sessionKey: 'agent:main:telegram:direct:123456789',
      sessionId: '6f1c2a9e-3b4d-4c5e-8f70-1a2b3c4d5e6f',
      agentId: 'main',
      createdAt: '2026-11-29T10:00:00.000Z',
      updatedAt: '2026-11-29T10:05:00.000Z',
      deliveryContext: { channel: 'telegram', accountId: 'default', to: '123456789' },
    },
  })
  @ApiBadRequestResponse(BAD_REQUEST)
  @ApiNotFoundResponse(NOT_FOUND)
  get(@Param('key') key: string): Promise<SessionEntryDto> {
    return this.sessions.get(key);
  }

  @Get(':key/history')
  @RequiresRole('viewer')
  @ApiOperation({
    summary: 'The last lines of a session transcript',
    description: 'Torn or corrupt lines (e.g. cut by a crash) are skipped and listed in warnings.',
  })
  @ApiParam(KEY_PARAM)
  @ApiOkResponse({
    type: SessionHistoryDto,
    description: 'The last transcript lines, oldest first.',
    example: {
      sessionKey: 'agent:main:main',
      lines: [
        { id: 'b7e0d1c2-1111-4222-8333-944455566677', ts: '2026-11-29T10:05:00.000Z', role: 'user', text: 'Status of the deploy?' },
        {
          id: 'c8f1e2d3-2222-4333-9444-a55566677788',
          ts: '2026-11-29T10:05:02.000Z',
          role: 'assistant',
          text: 'Deployed at 10:01.',
          runId: 'run-7f3a',
        },
      ],
      warnings: [],
    },
  })
  @ApiBadRequestResponse(BAD_REQUEST)
  @ApiNotFoundResponse(NOT_FOUND)
  history(@Param('key') key: string, @Query() query: SessionHistoryQueryDto): Promise<SessionHistoryDto> {
    return this.sessions.history(key, query);
  }

  @Get(':key/export')
  @RequiresRole('viewer')
  @ApiOperation({
    summary: 'The whole transcript as a JSONL file',
    description:
      'One JSON object per line, oldest first — the transcript line shape of the history endpoint, all fields, tool lines ' +
      'included. Streamed, so a long session never sits in memory whole. `clawgate sessions export <key>` writes the same file.',
  })
  @ApiParam(KEY_PARAM)
  @ApiOkResponse({
    description: 'The transcript, `Content-Disposition: attachment; filename="<sessionId>.jsonl"`.',
    content: {
      'application/x-ndjson': {
        // One JSON object a line: the schema is that of a line.
        schema: { $ref: getSchemaPath(TranscriptLineDto) },
        example:
          '{"id":"b7e0d1c2-1111-4222-8333-944455566677","ts":"2026-11-29T10:05:00.000Z","role":"user","text":"Status of the deploy?"}\n',
      },
    },
  })
  @ApiBadRequestResponse(BAD_REQUEST)
  @ApiNotFoundResponse(NOT_FOUND)
  async export(@Param('key') key: string, @Res() res: Response): Promise<void> {
    const { entry, chunks } = await this.sessions.export(key);
    res.status(200);
    res.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${entry.sessionId}.jsonl"`);
    // Streamed past res.send, so the response masker does not see it: the chunks come masked (masked-export.ts).
    try {
      for await (const chunk of chunks) {
        if (res.destroyed) return;
        // A client that goes away never drains: 'close' ends the wait too.
        if (!res.write(chunk)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
      }
    } catch (err) {
      // Headers are out: the only honest end left is a cut connection (the client sees an incomplete body).
      res.destroy(err as Error);
      return;
    }
    res.end();
  }
}
