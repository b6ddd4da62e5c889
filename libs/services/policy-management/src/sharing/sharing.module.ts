import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ResourceRelationEntity } from '../policy-store';
import { SharingController } from './sharing.controller';
import { SharingService } from './sharing.service';

@Module({
  imports: [TypeOrmModule.forFeature([ResourceRelationEntity])],
  controllers: [SharingController],
  providers: [SharingService],
})
export class SharingModule {}
