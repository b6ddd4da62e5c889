import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuthzRpc, DomainError, NotFoundError, PLATFORM_TENANT, TenantStatus, TrustedCaller } from '@lp/contracts';
import { RpcClient, RpcRemoteError } from '@lp/platform/messaging';
import { CreateTenantDto } from './dto/create-tenant.dto';
import { TenantResponse, TenantSummary } from './dto/tenant.response';
import { TenantPage, tenantPageOffset } from './tenant-paging';
import { PlatformTenantProtectedError, TenantBootstrapUnavailableError, TenantConflictError, TenantStatusUnavailableError } from './tenants.errors';

interface TenantRow {
  id: string;
  name: string;
  status: TenantStatus;
  status_version: string;
  admin_subject: string;
  bootstrapped_at: Date | null;
  created_at: Date;
  updated_at: Date;
  created_by: string;
}

const COLUMNS = `"id", "name", "status", "status_version", "admin_subject", "bootstrapped_at", "created_at", "updated_at", "created_by"`;

function responseOf(row: TenantRow): TenantResponse {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    adminSubject: row.admin_subject,
    administratorReady: row.bootstrapped_at !== null,
    updatedAt: row.updated_at.toISOString(),
    createdBy: row.created_by,
  };
}

/**
 * The tenant lifecycle (docs/tenants.md). The row is operations'; the policy side (the first
 * administrator, the suspension as a decision fact) is policy-management's, asked over RPC as the
 * HTTP caller, after the row's own write has committed: no transaction is held open across a call
 * (on the embedded database that would block the very service being called). Each step is
 * idempotent, so the answer to a failed call is "repeat the same request", which completes it.
 */
@Injectable()
export class TenantsService {
  private readonly logger = new Logger(TenantsService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly rpc: RpcClient,
  ) {}

  /** One page in id order: ids are unique and immutable, so the order is total and stable across pages. */
  async list(page: TenantPage): Promise<TenantSummary[]> {
    const offset = tenantPageOffset(page);
    if (offset === undefined) return [];
    const rows: TenantRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM "platform"."tenant" ORDER BY "id" LIMIT $1 OFFSET $2`, [
      page.pageSize,
      offset,
    ]);
    return rows.map((row) => ({ id: row.id, name: row.name, status: row.status, createdAt: row.created_at.toISOString() }));
  }

  async get(id: string): Promise<TenantResponse> {
    return responseOf(await this.find(id));
  }

  /**
   * Creates the tenant and bootstraps its first administrator. `created` is false when the same
   * tenant (same id, name and adminSubject) already existed: the request is a retry, answered with
   * the tenant, and the bootstrap runs again so a half-done earlier attempt is completed.
   */
  async create(caller: TrustedCaller, dto: CreateTenantDto): Promise<{ tenant: TenantResponse; created: boolean }> {
    if (dto.id === PLATFORM_TENANT) throw new PlatformTenantProtectedError(dto.id, 'created');
    const inserted: TenantRow[] = await this.dataSource.query(
      `INSERT INTO "platform"."tenant" ("id", "name", "admin_subject", "created_by") VALUES ($1, $2, $3, $4)
       ON CONFLICT ("id") DO NOTHING RETURNING ${COLUMNS}`,
      [dto.id, dto.name, dto.adminSubject, caller.actor ?? caller.subject],
    );
    const created = inserted.length > 0;
    const row = inserted[0] ?? (await this.find(dto.id));
    if (row.name !== dto.name || row.admin_subject !== dto.adminSubject) throw new TenantConflictError(dto.id);

    try {
      await this.rpc.call(AuthzRpc.tenantBootstrap, { caller, payload: { tenantId: dto.id, adminSubject: dto.adminSubject } });
    } catch (error) {
      throw this.policyFailure(error, `bootstrap of tenant ${dto.id}`, new TenantBootstrapUnavailableError(dto.id));
    }
    const [ready]: TenantRow[][] = await this.dataSource.query(
      `UPDATE "platform"."tenant" SET "bootstrapped_at" = coalesce("bootstrapped_at", now()) WHERE "id" = $1 RETURNING ${COLUMNS}`,
      [dto.id],
    );
    return { tenant: responseOf(ready?.[0] ?? row), created };
  }

  /**
   * Suspends or reactivates a tenant. The row changes first (its version moves only when the status
   * does), then policy-management records the status for decisions with that version; a repeated
   * request sends it again, so a call that failed last time is completed.
   */
  async setStatus(caller: TrustedCaller, id: string, status: TenantStatus): Promise<TenantResponse> {
    if (id === PLATFORM_TENANT) {
      if (status === 'suspended') throw new PlatformTenantProtectedError(id, 'suspended');
      // Always active (a CHECK constraint on both sides): nothing to change or to tell.
      return this.get(id);
    }
    const [updated]: TenantRow[][] = await this.dataSource.query(
      `UPDATE "platform"."tenant"
          SET "status_version" = "status_version" + CASE WHEN "status" = $2 THEN 0 ELSE 1 END,
              "updated_at" = CASE WHEN "status" = $2 THEN "updated_at" ELSE now() END,
              "status" = $2
        WHERE "id" = $1 RETURNING ${COLUMNS}`,
      [id, status],
    );
    const row = updated?.[0];
    if (!row) throw new NotFoundError(`Tenant "${id}"`);
    try {
      await this.rpc.call(AuthzRpc.tenantStatus, { caller, payload: { tenantId: id, status, version: Number(row.status_version) } });
    } catch (error) {
      throw this.policyFailure(error, `status ${status} of tenant ${id}`, new TenantStatusUnavailableError(id));
    }
    return responseOf(row);
  }

  private async find(id: string): Promise<TenantRow> {
    const [row]: TenantRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM "platform"."tenant" WHERE "id" = $1`, [id]);
    if (!row) throw new NotFoundError(`Tenant "${id}"`);
    return row;
  }

  /**
   * policy-management's own refusal (a 4xx: the caller may not bootstrap or suspend, the payload is
   * invalid) is the caller's answer, code and all. Anything else (no answer in time, the broker
   * down, a 5xx) means "not done yet": the retryable 503 of the step.
   */
  private policyFailure(error: unknown, what: string, unavailable: DomainError): DomainError {
    if (error instanceof RpcRemoteError && error.problem.status >= 400 && error.problem.status < 500) {
      return new DomainError(error.problem.code, error.problem.status, error.problem.detail ?? error.problem.title);
    }
    this.logger.warn(`${what} could not reach policy-management: ${error instanceof Error ? error.message : String(error)}`);
    return unavailable;
  }
}
