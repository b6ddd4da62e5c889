import { Module } from '@nestjs/common';
import { CasesModule } from './cases/cases.module';

/** Wires case-management: each folder owns its module. */
@Module({ imports: [CasesModule] })
export class CaseManagementModule {}
