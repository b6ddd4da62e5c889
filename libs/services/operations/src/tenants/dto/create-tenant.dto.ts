import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, Length, Matches } from 'class-validator';
import { TENANT_ID_MAX_LENGTH, TENANT_ID_PATTERN } from '@lp/contracts';

/** Subjects are token `sub` values: anything printable (the bootstrap's rule). */
export const ADMIN_SUBJECT_PATTERN = /^[^\p{Cc}]+$/u;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** Body of POST /api/operations/tenants. */
export class CreateTenantDto {
  @ApiProperty({ minLength: 1, maxLength: TENANT_ID_MAX_LENGTH, pattern: TENANT_ID_PATTERN.source, example: 'globex' })
  @IsString()
  @Length(1, TENANT_ID_MAX_LENGTH)
  @Matches(TENANT_ID_PATTERN, { message: 'id must be lower-case letters, digits, "_" and "-", starting with a letter or digit' })
  id!: string;

  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Globex Corporation', description: 'Trimmed.' })
  @Transform(trim)
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiProperty({ minLength: 1, maxLength: 255, example: 'gwen', description: "The first administrator's subject (token `sub`)." })
  @IsString()
  @Length(1, 255)
  @Matches(ADMIN_SUBJECT_PATTERN, { message: 'adminSubject must not contain control characters' })
  adminSubject!: string;
}
