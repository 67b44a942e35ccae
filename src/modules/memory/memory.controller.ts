import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RequiresRole } from '../../common/auth/requires-role.decorator';
import { ProblemDto } from '../../common/errors/problem.dto';
import {
  MemoryCollectionsDto,
  MemoryFileDto,
  MemoryFileQueryDto,
  MemoryReindexDto,
  MemorySearchQueryDto,
  MemorySearchResultDto,
} from './dto/memory.dto';
import { MemoryService } from './memory.service';

const AGENT = { name: 'id', description: 'Agent id as configured.', example: 'main' };
const NOT_FOUND = { status: 404, type: ProblemDto, description: 'No such agent.' };

/** An agent's memory as the agent itself sees it (its own collections only). */
@ApiTags('memory')
@Controller('admin/agents/:id/memory')
export class MemoryController {
  constructor(private readonly memory: MemoryService) {}

  @Get('collections')
  @RequiresRole('viewer')
  @ApiOperation({
    summary: "The agent's memory collections and how much of each is indexed",
    description: "Opens (and indexes, on first use) the agent's memory. `embedded` < `chunks` while vectors are being computed.",
  })
  @ApiParam(AGENT)
  @ApiOkResponse({ type: MemoryCollectionsDto, description: 'The agent’s collections and their index state.' })
  @ApiResponse(NOT_FOUND)
  collections(@Param('id') id: string): Promise<MemoryCollectionsDto> {
    return this.memory.collections(id);
  }

  @Get('search')
  @RequiresRole('viewer')
  @ApiOperation({
    summary: 'Search as the agent would with memory_search',
    description:
      "Hybrid search (BM25 + vectors, reciprocal rank fusion) over the agent's own collections; the response is exactly the memory_search result.",
  })
  @ApiParam(AGENT)
  @ApiOkResponse({ type: MemorySearchResultDto, description: 'The best matching chunks, best first.' })
  @ApiResponse({
    status: 400,
    type: ProblemDto,
    description: 'q missing or too long, limit not an integer in 1..100, or an unknown parameter.',
  })
  @ApiResponse(NOT_FOUND)
  search(@Param('id') id: string, @Query() query: MemorySearchQueryDto): Promise<MemorySearchResultDto> {
    return this.memory.search(id, { query: query.q, maxResults: query.limit, minScore: query.minScore });
  }

  @Get('file')
  @RequiresRole('viewer')
  @ApiOperation({
    summary: 'Read a file of the agent’s memory as memory_get does',
    description:
      'The same confinement as the tool: only files of the agent’s own collections, no `..`, no hidden file, no symlink out of a collection. At most 64 KiB of text per call (`truncated`, continue with `from`).',
  })
  @ApiParam(AGENT)
  @ApiOkResponse({ type: MemoryFileDto, description: 'The lines asked for.' })
  @ApiResponse({
    status: 400,
    type: ProblemDto,
    description: 'path missing or too long, from/lines not integers in range, or an unknown parameter.',
  })
  @ApiResponse({ status: 403, type: ProblemDto, description: 'The path is outside the agent’s memory collections (or contains `..`).' })
  @ApiResponse({ status: 404, type: ProblemDto, description: 'No such agent, or no such file inside its collections.' })
  file(@Param('id') id: string, @Query() query: MemoryFileQueryDto): Promise<MemoryFileDto> {
    return this.memory.readFile(id, { path: query.path, from: query.from, lines: query.lines });
  }

  @Post('reindex')
  @HttpCode(200)
  @RequiresRole('operator')
  @ApiOperation({
    summary: "Re-read every file of the agent's collections",
    description:
      'Ignores the stored content hashes, re-chunks every file, drops files that are gone, and answers once keyword and vector indexes are complete.',
  })
  @ApiParam(AGENT)
  @ApiOkResponse({ type: MemoryReindexDto, description: 'What the reindex did, per collection.' })
  @ApiResponse(NOT_FOUND)
  reindex(@Param('id') id: string): Promise<MemoryReindexDto> {
    return this.memory.reindex(id);
  }
}
