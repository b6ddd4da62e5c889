export * from './decision-audit-entry';
export * from './decision-audit-query';
export * from './decision-audit-record.entity';
export * from './decision-audit-spool';
export * from './decision-audit-writer';
export * from './decision-audit.errors';
