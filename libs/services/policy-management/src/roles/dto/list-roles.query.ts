import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, Length } from 'class-validator';
import { PageQuery } from '@lp/platform/http';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/**
 * Query of GET /roles: the platform's paging, an optional exact name, so a script can find the role
 * it needs by its tenant-unique name before creating it (create-if-absent, safe to re-run), and an
 * optional search for people looking a role up (the members route's `search`, on the name).
 */
export class ListRolesQuery extends PageQuery {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100, description: 'Only the role with exactly this name (trimmed): zero or one item.' })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @Length(1, 100)
  name?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 100, description: 'Case-insensitive: only roles whose name contains this text (trimmed).' })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @Length(1, 100)
  search?: string;
}
