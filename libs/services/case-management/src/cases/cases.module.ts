import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ConfigModule } from '@lp/platform/config';
import { caseManagementConfig } from '../case-management.config';
import { LitigationCaseEntity } from '../store';
import { CaseFactsLoader } from './case-facts.loader';
import { CasesController } from './cases.controller';
import { CasesRepository } from './cases.repository';
import { CasesRpcController } from './cases.rpc-controller';
import { CasesService } from './cases.service';

/** Litigation cases: the HTTP routes, the RPC patterns, the guard's facts loader. */
@Module({
  imports: [TypeOrmModule.forFeature([LitigationCaseEntity]), ConfigModule.forRoot(caseManagementConfig)],
  controllers: [CasesController, CasesRpcController],
  providers: [CasesService, CasesRepository, CaseFactsLoader],
})
export class CasesModule {}
