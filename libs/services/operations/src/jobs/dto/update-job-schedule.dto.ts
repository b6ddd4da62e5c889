import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsOptional, IsString, Min } from 'class-validator';

/**
 * `PUT /jobs/{jobName}`: the three runtime fields, replaced at once (spec §3). An absent or null
 * field is "none"; a blank cron is none too. `interval:{n}s` (the list's rendering of an interval)
 * is accepted as `cronExpression`, so a client can send back what it read.
 */
export class UpdateJobScheduleDto {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 160,
    description: 'Cron in UTC: 5 fields, or 6 with seconds first; trimmed; or `interval:{seconds}s`. Null: no cron.',
    example: '*/15 * * * *',
  })
  @IsOptional()
  @IsString()
  cronExpression?: string | null;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 1, description: 'Run every this many seconds. Null: no interval.', example: 300 })
  @IsOptional()
  @IsInt()
  @Min(1)
  intervalSeconds?: number | null;

  @ApiProperty({ description: 'The automatic-schedule switch; enabling needs a schedule.' })
  @IsBoolean()
  enabled!: boolean;
}
