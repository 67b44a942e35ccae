import { ApiProperty } from '@nestjs/swagger';

/** Answer of `GET /admin/config/file`. */
export class ConfigFileDto {
  @ApiProperty({ example: '3f9a1c2b7d10', description: 'The served revision (also the ETag header).' }) revision!: string;
  @ApiProperty({ example: '/etc/clawgate/openclaw.json' }) configPath!: string;
  @ApiProperty({
    example: '{\n  // the agents\n  agents: { list: [{ id: "main" }] },\n}\n',
    description: 'The root file as JSON5 text, comments kept; each literal secret as "[redacted]".',
  })
  text!: string;
  @ApiProperty({ type: [String], example: ['agents.json5'], description: 'Files the root $includes, relative to it.' })
  includes!: string[];
}
