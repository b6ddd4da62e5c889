-- Fixture: the "authz" tables that SqlPolicyFactsReader reads, as policy-management's migrations
-- (CreateRoleTable1763700000000, CreatePolicyTables1763700000001) create them. authz-decision may
-- not import policy-management, so its integration spec builds the schema from this copy;
-- policy-management's policy-store/policy-tables.int-spec.ts fails when the two disagree.
CREATE SCHEMA IF NOT EXISTS "authz";

CREATE TABLE "authz"."role" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  "tenant_id" varchar(64) NOT NULL,
  "name" varchar(100) NOT NULL,
  "description" varchar(500),
  "data_scope" varchar(20) NOT NULL DEFAULT 'tenant',
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now()
);

CREATE UNIQUE INDEX "uq_role_tenant_name" ON "authz"."role" ("tenant_id", "name");

ALTER TABLE "authz"."role"
  ADD CONSTRAINT "ck_role_data_scope" CHECK ("data_scope" IN ('tenant', 'office', 'own', 'none'));

ALTER TABLE "authz"."role" ADD CONSTRAINT "uq_role_id_tenant_name" UNIQUE ("id", "tenant_id", "name");

CREATE TABLE "authz"."permission" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  "code" varchar(200) NOT NULL,
  "module" varchar(60) NOT NULL,
  "resource" varchar(60) NOT NULL,
  "action" varchar(30) NOT NULL,
  "description" varchar(500),
  "created_at" timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT "uq_permission_code" UNIQUE ("code"),
  CONSTRAINT "uq_permission_id_code_module" UNIQUE ("id", "code", "module"),
  CONSTRAINT "ck_permission_segments" CHECK ("module" ~ '^[a-z][a-z0-9-]*$' AND "resource" ~ '^[a-z][a-z0-9-]*$'),
  CONSTRAINT "ck_permission_code" CHECK ("code" = "module" || '.' || "resource" || '.' || lower("action"))
);

CREATE TABLE "authz"."role_permission" (
  "tenant_id" varchar(64) NOT NULL,
  "role_id" uuid NOT NULL,
  "role_name" varchar(100) NOT NULL,
  "permission_id" uuid NOT NULL,
  "permission_code" varchar(200) NOT NULL,
  "module" varchar(60) NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "created_by" varchar(255) NOT NULL,
  CONSTRAINT "pk_role_permission" PRIMARY KEY ("role_id", "permission_id"),
  CONSTRAINT "fk_role_permission_role" FOREIGN KEY ("role_id", "tenant_id", "role_name")
    REFERENCES "authz"."role" ("id", "tenant_id", "name") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "fk_role_permission_permission" FOREIGN KEY ("permission_id", "permission_code", "module")
    REFERENCES "authz"."permission" ("id", "code", "module") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE INDEX "ix_role_permission_tenant_role" ON "authz"."role_permission" ("tenant_id", "role_name");

CREATE INDEX "ix_role_permission_permission" ON "authz"."role_permission" ("permission_id");

CREATE TABLE "authz"."user_role" (
  "tenant_id" varchar(64) NOT NULL,
  "subject" varchar(255) NOT NULL,
  "role_id" uuid NOT NULL,
  "role_name" varchar(100) NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "created_by" varchar(255) NOT NULL,
  CONSTRAINT "pk_user_role" PRIMARY KEY ("tenant_id", "subject", "role_id"),
  CONSTRAINT "fk_user_role_role" FOREIGN KEY ("role_id", "tenant_id", "role_name")
    REFERENCES "authz"."role" ("id", "tenant_id", "name") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE INDEX "ix_user_role_role_subject" ON "authz"."user_role" ("role_id", "subject");

CREATE TABLE "authz"."subject_office" (
  "tenant_id" varchar(64) NOT NULL,
  "subject" varchar(255) NOT NULL,
  "office_id" varchar(100) NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT "pk_subject_office" PRIMARY KEY ("tenant_id", "subject", "office_id")
);

CREATE TABLE "authz"."abac_rule" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  "tenant_id" varchar(64) NOT NULL,
  "name" varchar(200) NOT NULL,
  "description" varchar(1000),
  "priority" integer NOT NULL,
  "verdict" smallint NOT NULL,
  "conditions" jsonb NOT NULL DEFAULT '[]',
  "actions" text[] NOT NULL DEFAULT '{}',
  "modules" text[] NOT NULL DEFAULT '{}',
  "resource_types" text[] NOT NULL DEFAULT '{}',
  "obligations" text[] NOT NULL DEFAULT '{}',
  "enabled" boolean NOT NULL DEFAULT true,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT "ck_abac_rule_verdict" CHECK ("verdict" IN (1, 2)),
  CONSTRAINT "ck_abac_rule_conditions" CHECK (
    jsonb_typeof("conditions") = 'array'
    AND NOT jsonb_path_exists("conditions", '$[*] ? (!(exists(@.field ? (@.type() == "number" && @ == @.floor())) && exists(@.operator ? (@.type() == "number" && @ == @.floor()))))')
  )
);

CREATE INDEX "ix_abac_rule_tenant_priority" ON "authz"."abac_rule" ("tenant_id", "priority", "id");

CREATE TABLE "authz"."feature_definition" (
  "code" varchar(100) PRIMARY KEY,
  "description" varchar(500) NOT NULL,
  "default_enabled" boolean NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE "authz"."feature_override" (
  "tenant_id" varchar(64) NOT NULL,
  "feature_code" varchar(100) NOT NULL,
  "enabled" boolean NOT NULL,
  "updated_at" timestamptz NOT NULL DEFAULT now(),
  "updated_by" varchar(255) NOT NULL,
  CONSTRAINT "pk_feature_override" PRIMARY KEY ("tenant_id", "feature_code"),
  CONSTRAINT "fk_feature_override_feature" FOREIGN KEY ("feature_code")
    REFERENCES "authz"."feature_definition" ("code") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE INDEX "ix_feature_override_feature" ON "authz"."feature_override" ("feature_code");

CREATE TABLE "authz"."resource_relation" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  "tenant_id" varchar(64) NOT NULL,
  "subject" varchar(255) NOT NULL,
  "resource_type" varchar(60) NOT NULL,
  "resource_id" varchar(200) NOT NULL,
  "relation" varchar(20) NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "created_by" varchar(255) NOT NULL,
  "subject_kind" varchar(10) NOT NULL DEFAULT 'user',
  CONSTRAINT "ck_resource_relation_relation" CHECK ("relation" IN ('owner', 'member', 'viewer')),
  CONSTRAINT "ck_resource_relation_subject_kind" CHECK ("subject_kind" IN ('user', 'role'))
);

CREATE UNIQUE INDEX "uq_resource_relation"
  ON "authz"."resource_relation" ("tenant_id", "subject", "resource_type", "resource_id", "relation", "subject_kind");

CREATE INDEX "ix_resource_relation_resource" ON "authz"."resource_relation" ("tenant_id", "resource_type", "resource_id");

CREATE TABLE "authz"."temporary_grant" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  "tenant_id" varchar(64) NOT NULL,
  "subject" varchar(255) NOT NULL,
  "permission_codes" text[] NOT NULL,
  "data_scope" varchar(20),
  "reason" varchar(1000) NOT NULL,
  "expires_at" timestamptz NOT NULL,
  "revoked_at" timestamptz,
  "source" varchar(50) NOT NULL,
  "source_id" varchar(200),
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "created_by" varchar(255) NOT NULL,
  "expired_at" timestamptz,
  CONSTRAINT "ck_temporary_grant_permissions" CHECK (cardinality("permission_codes") > 0),
  CONSTRAINT "ck_temporary_grant_data_scope" CHECK ("data_scope" IN ('tenant', 'office', 'own', 'none'))
);

CREATE INDEX "ix_temporary_grant_subject" ON "authz"."temporary_grant" ("tenant_id", "subject");

CREATE UNIQUE INDEX "uq_temporary_grant_source"
  ON "authz"."temporary_grant" ("tenant_id", "source", "source_id") WHERE "source_id" IS NOT NULL;

CREATE INDEX "ix_temporary_grant_active_expiry" ON "authz"."temporary_grant" ("expires_at") WHERE "revoked_at" IS NULL AND "expired_at" IS NULL;

CREATE TABLE "authz"."delegated_grant" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  "tenant_id" varchar(64) NOT NULL,
  "delegator" varchar(255) NOT NULL,
  "actor" varchar(255) NOT NULL,
  "permission_codes" text[] NOT NULL,
  "expires_at" timestamptz NOT NULL,
  "revoked_at" timestamptz,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "reason" varchar(1000),
  "expired_at" timestamptz,
  CONSTRAINT "ck_delegated_grant_permissions" CHECK (cardinality("permission_codes") > 0),
  CONSTRAINT "ck_delegated_grant_actor" CHECK ("actor" <> "delegator")
);

CREATE INDEX "ix_delegated_grant_delegator" ON "authz"."delegated_grant" ("tenant_id", "delegator");

CREATE INDEX "ix_delegated_grant_actor" ON "authz"."delegated_grant" ("tenant_id", "actor");

CREATE INDEX "ix_delegated_grant_active_expiry" ON "authz"."delegated_grant" ("expires_at") WHERE "revoked_at" IS NULL AND "expired_at" IS NULL;

CREATE TABLE "authz"."tenant_status" (
  "tenant_id" varchar(64) PRIMARY KEY,
  "status" varchar(16) NOT NULL,
  "version" bigint NOT NULL,
  "updated_at" timestamptz NOT NULL DEFAULT now(),
  "updated_by" varchar(255) NOT NULL,
  CONSTRAINT "ck_tenant_status_status" CHECK ("status" IN ('active', 'suspended')),
  CONSTRAINT "ck_tenant_status_version_positive" CHECK ("version" > 0),
  CONSTRAINT "ck_tenant_status_platform_active" CHECK ("tenant_id" <> 'default' OR "status" = 'active')
);
