import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CASE_TYPES, type CaseType, MAX_CASE_TITLE_LENGTH, MAX_CLAIM_AMOUNT, MAX_DEFENDANT_NAME_LENGTH } from '@lp/contracts';

/**
 * Body of POST /api/cases, for the OpenAPI document only. The rules are enforced once, by the
 * contract's `createCaseSchema` (the same check `cases.create` runs), through SchemaValidationPipe:
 * this class carries no validation decorators and is never instantiated.
 */
export class CreateCaseDto {
  @ApiProperty({ minLength: 1, maxLength: MAX_CASE_TITLE_LENGTH, example: 'Acme v. Globex: breach of supply contract', description: 'Trimmed.' })
  title!: string;

  @ApiProperty({ enum: CASE_TYPES, example: 'commercial' })
  caseType!: CaseType;

  @ApiProperty({
    type: 'number',
    minimum: 0,
    exclusiveMinimum: true,
    maximum: MAX_CLAIM_AMOUNT,
    example: 125000.5,
    description: 'Strictly positive, at most two decimals.',
  })
  claimAmount!: number;

  @ApiPropertyOptional({
    pattern: '^[A-Z]{3}$',
    example: 'EUR',
    description: 'ISO 4217 code; the service default (`CASES_DEFAULT_CURRENCY`, USD) when absent.',
  })
  currency?: string;

  @ApiProperty({ minLength: 1, maxLength: MAX_DEFENDANT_NAME_LENGTH, example: 'Globex Corporation', description: 'Trimmed.' })
  defendantName!: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 64, example: 'paris', description: 'The office the case belongs to (DataScope `office`).' })
  officeId?: string;
}
