import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FeatureDefinitionEntity, FeatureOverrideEntity } from '../policy-store';
import { FeatureRepository } from './feature.repository';
import { FeaturesController } from './features.controller';
import { FeaturesService } from './features.service';

@Module({
  imports: [TypeOrmModule.forFeature([FeatureDefinitionEntity, FeatureOverrideEntity])],
  controllers: [FeaturesController],
  providers: [FeaturesService, FeatureRepository],
})
export class FeaturesModule {}
