import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ResourceRelationEntity } from '../policy-store';
import { CaseOwnerRelationListener } from './case-owner-relation.listener';
import { SharingController } from './sharing.controller';
import { SharingService } from './sharing.service';

/** Shares of resource instances (the sharing routes), and the owner relations of new cases (`case.created`). */
@Module({
  imports: [TypeOrmModule.forFeature([ResourceRelationEntity])],
  controllers: [SharingController],
  providers: [SharingService, CaseOwnerRelationListener],
})
export class SharingModule {}
