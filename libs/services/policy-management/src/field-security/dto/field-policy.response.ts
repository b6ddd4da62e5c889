import { ApiProperty } from '@nestjs/swagger';
import { PageMeta } from '@lp/platform/http';
import { FieldPolicyEntity } from '../../policy-store';
import { EffectiveFieldEffect, FIELD_EFFECT_NAMES, FieldEffectName, fieldEffectName } from '../field-effect';

export class FieldPolicyResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() module!: string;
  @ApiProperty() resourceType!: string;
  @ApiProperty() field!: string;
  @ApiProperty({ format: 'uuid' }) roleId!: string;
  @ApiProperty() roleName!: string;
  @ApiProperty({ enum: FIELD_EFFECT_NAMES }) effect!: FieldEffectName;
  @ApiProperty() createdAt!: string;
  @ApiProperty() updatedAt!: string;
  @ApiProperty() createdBy!: string;

  static of(row: FieldPolicyEntity): FieldPolicyResponse {
    return {
      id: row.id,
      module: row.module,
      resourceType: row.resourceType,
      field: row.field,
      roleId: row.roleId,
      roleName: row.roleName,
      effect: fieldEffectName(row.effect),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      createdBy: row.createdBy,
    };
  }
}

export class FieldPolicyPage extends PageMeta {
  @ApiProperty({ type: [FieldPolicyResponse] }) items!: FieldPolicyResponse[];
}

export class EffectiveFieldEffectResponse implements EffectiveFieldEffect {
  @ApiProperty() field!: string;
  @ApiProperty({ enum: FIELD_EFFECT_NAMES }) effect!: FieldEffectName;
  @ApiProperty({ type: [String], description: 'The roles whose policy gives this effect.' }) roles!: string[];
}

export class EffectiveFieldPolicyResponse {
  @ApiProperty() module!: string;
  @ApiProperty() resourceType!: string;
  @ApiProperty() subject!: string;
  @ApiProperty({ type: [String], description: "The subject's roles in the tenant." }) roles!: string[];
  @ApiProperty({ type: [EffectiveFieldEffectResponse], description: 'Restricted fields only; any other field is unrestricted.' })
  fields!: EffectiveFieldEffectResponse[];
}
