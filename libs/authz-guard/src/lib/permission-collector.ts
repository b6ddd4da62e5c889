import { Injectable } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { AuthorizationAction, permissionCode, PermissionCode } from '@lp/contracts';
import { AUTHORIZE_METADATA, AuthorizeOptions } from './authorize.decorator';

export interface DeclaredPermission {
  code: PermissionCode;
  module: string;
  resource: string;
  action: AuthorizationAction;
  /** `Controller.method` declarations that need it. */
  declaredBy: string[];
}

/**
 * Lists every permission the running application declares through `@Authorize`, on HTTP routes and
 * RPC handlers alike; the permission catalog is seeded from it, so a declared code can never be
 * missing from the catalog.
 */
@Injectable()
export class PermissionCollector {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  collect(): DeclaredPermission[] {
    const byCode = new Map<string, DeclaredPermission>();
    const record = (options: AuthorizeOptions, where: string) => {
      const code = permissionCode(options.module, options.resource, options.action);
      const entry = byCode.get(code) ?? {
        code,
        module: options.module.toLowerCase(),
        resource: options.resource.toLowerCase(),
        action: options.action,
        declaredBy: [],
      };
      entry.declaredBy.push(where);
      byCode.set(code, entry);
    };
    for (const wrapper of this.discovery.getControllers()) {
      const instance = wrapper.instance as object | undefined;
      if (!instance || !wrapper.metatype) continue;
      const classLevel = this.reflector.get<AuthorizeOptions | undefined>(AUTHORIZE_METADATA, wrapper.metatype);
      for (const method of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
        const handler = (instance as Record<string, unknown>)[method] as () => unknown;
        const options = this.reflector.get<AuthorizeOptions | undefined>(AUTHORIZE_METADATA, handler) ?? classLevel;
        if (options) record(options, `${wrapper.metatype.name}.${method}`);
      }
    }
    return [...byCode.values()].sort((a, b) => a.code.localeCompare(b.code));
  }
}
