import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FieldPolicyEntity } from '../policy-store';
import { FieldSecurityController } from './field-security.controller';
import { FieldSecurityService } from './field-security.service';

@Module({
  imports: [TypeOrmModule.forFeature([FieldPolicyEntity])],
  controllers: [FieldSecurityController],
  providers: [FieldSecurityService],
})
export class FieldSecurityModule {}
