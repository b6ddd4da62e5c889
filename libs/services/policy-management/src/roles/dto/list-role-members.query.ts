import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, Length } from 'class-validator';
import { PageQuery } from '@lp/platform/http';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** Query of GET /roles/{roleId}/members: the platform's paging and an optional subject search. */
export class ListRoleMembersQuery extends PageQuery {
  @ApiPropertyOptional({ minLength: 1, maxLength: 255, description: 'Case-insensitive: only subjects containing this text (trimmed).' })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @Length(1, 255)
  search?: string;
}
