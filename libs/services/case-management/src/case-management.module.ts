import { Module } from '@nestjs/common';

/** Wires case-management: each folder owns its module. */
@Module({ imports: [] })
export class CaseManagementModule {}
