import { CreateDecisionAudit1763700000100 } from './1763700000100-CreateDecisionAudit';
import { DecisionAuditJsonColumns1763700000101 } from './1763700000101-DecisionAuditJsonColumns';
import { PartitionDecisionAudit1763700000110 } from './1763700000110-PartitionDecisionAudit';
import { DecisionAuditReasonCode1763700000120 } from './1763700000120-DecisionAuditReasonCode';

/** The decision audit's migrations, in order: what the service runs and what the audit tests build. */
export const DECISION_AUDIT_MIGRATIONS = [
  CreateDecisionAudit1763700000100,
  DecisionAuditJsonColumns1763700000101,
  PartitionDecisionAudit1763700000110,
  DecisionAuditReasonCode1763700000120,
];
