import { Module } from '@nestjs/common';
import { PermissionCatalogReader } from './permission-catalog.reader';
import { PermissionsController } from './permissions.controller';

@Module({ controllers: [PermissionsController], providers: [PermissionCatalogReader], exports: [PermissionCatalogReader] })
export class PermissionsModule {}
