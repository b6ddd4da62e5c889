import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQuery } from '@lp/platform/http';
import { PERMISSION_REQUEST_STATUSES, PermissionRequestStatus } from '../../policy-store/entities/permission-request.entity';

export class ListPermissionRequestsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: PERMISSION_REQUEST_STATUSES, description: 'Effective status: `expired` is an approved request whose grant has run out.' })
  @IsOptional()
  @IsIn(PERMISSION_REQUEST_STATUSES)
  status?: PermissionRequestStatus;
}
