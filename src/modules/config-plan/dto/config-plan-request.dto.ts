import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/**
 * Body of `POST /admin/config/plan`: exactly one of the two. Their types are checked by the service so the
 * answer can say which one is wrong and how (class-validator would only say "must be a string"); `@Allow`
 * keeps them through the global whitelist, which still refuses any other field.
 */
export class ConfigPlanRequestDto {
  @ApiPropertyOptional({
    type: String,
    description: 'The whole candidate openclaw.json as JSON5 text. $include paths resolve relative to the live config file.',
    example: '{\n  // comments are kept\n  agents: { list: [{ id: "main" }, { id: "support" }] },\n}',
  })
  @Allow()
  document?: unknown;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'A JSON Merge Patch (RFC 7396) against the root file on disk: null removes a key, objects merge, anything else (arrays too) replaces. ' +
      'Applied with the same comment-keeping edits as the gateway’s own writes.',
    example: { tools: { agentToAgent: { enabled: false } } },
  })
  @Allow()
  mergePatch?: unknown;
}
