import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AbacRuleEntity } from '../policy-store';
import { AbacRuleRepository } from './abac-rule.repository';
import { AbacRulesController } from './abac-rules.controller';
import { AbacRulesService } from './abac-rules.service';

@Module({
  imports: [TypeOrmModule.forFeature([AbacRuleEntity])],
  controllers: [AbacRulesController],
  providers: [AbacRulesService, AbacRuleRepository],
})
export class AbacRulesModule {}
