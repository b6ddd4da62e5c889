import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { ROLE_DATA_SCOPES, RoleDataScope } from '../../policy-store/entities/role.entity';

/**
 * Role names: trimmed, 1–100 characters, starting with a letter or digit, then letters, digits,
 * spaces, `.`, `_` and `-` (any script). The name is the tenant-local key that relation rows copy,
 * so it stays printable and free of separators used elsewhere (`:`, `/`, `,`).
 */
export const ROLE_NAME_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N} ._-]*$/u;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** Body of POST /roles and PUT /roles/{roleId}. */
export class SaveRoleDto {
  @ApiProperty({ minLength: 1, maxLength: 100, pattern: ROLE_NAME_PATTERN.source, example: 'case-clerk' })
  @Transform(trim)
  @IsString()
  @Length(1, 100)
  @Matches(ROLE_NAME_PATTERN, { message: 'name must start with a letter or digit and contain only letters, digits, spaces, ".", "_" and "-"' })
  name!: string;

  @ApiPropertyOptional({ maxLength: 500, nullable: true, type: String })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string | null;

  @ApiPropertyOptional({ enum: ROLE_DATA_SCOPES, description: 'Default on create: tenant. Omitted on update: unchanged.' })
  @IsOptional()
  @IsIn(ROLE_DATA_SCOPES)
  dataScope?: RoleDataScope;
}
