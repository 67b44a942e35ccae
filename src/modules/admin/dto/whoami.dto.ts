import { ApiProperty } from '@nestjs/swagger';

export class WhoAmIDto {
  @ApiProperty({ example: 'sso:alice@example.com', description: '`token:<name>`, `sso:<user or e-mail>`, or `loopback`.' })
  subject!: string;
  @ApiProperty({ enum: ['viewer', 'operator', 'admin'], description: 'What the caller may do (viewer < operator < admin).' })
  role!: string;
  @ApiProperty({ enum: ['token', 'sso', 'loopback'], description: 'How the caller was identified.' })
  via!: string;
}
