import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNumber, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** A module or resource type segment of a permission code (`{module}.{resource}.{action}`). */
const SEGMENT = /^[a-z][a-z0-9-]*$/;

/**
 * The resource a request body asks about (spec §2 descriptor, without the tenant: that is the
 * token's). Shared by the routes that take a descriptor from a client: authz-decision's decision
 * routes, and policy-management's simulation, which extends it with the facts a real request loads
 * server-side.
 */
export class ResourceDescriptorDto {
  @ApiProperty({ example: 'cases' })
  @IsString()
  @Matches(SEGMENT, { message: 'module must be a lower-case code like "cases"' })
  @MaxLength(64)
  module!: string;

  @ApiProperty({ example: 'case' })
  @IsString()
  @Matches(SEGMENT, { message: 'resourceType must be a lower-case code like "case"' })
  @MaxLength(64)
  resourceType!: string;

  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(128) resourceId?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(64) status?: string;
  @ApiPropertyOptional() @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) amount?: number;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(64) sensitivity?: string;
}
