import { Module } from '@nestjs/common';
import { CatalogSeeder } from './catalog.seeder';

@Module({ providers: [CatalogSeeder], exports: [CatalogSeeder] })
export class CatalogModule {}
