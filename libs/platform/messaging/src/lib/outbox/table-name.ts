import { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * The quoted, schema-qualified table of an entity in this DataSource, for the few statements the
 * query builder cannot express (UPDATE ... WHERE id IN (... FOR UPDATE SKIP LOCKED) RETURNING).
 * Entities have no schema of their own; the DataSource's default schema applies.
 */
export function qualifiedTableName(dataSource: DataSource, entity: EntityTarget<ObjectLiteral>): string {
  const { schema, tableName } = dataSource.getMetadata(entity);
  const quote = (name: string) => dataSource.driver.escape(name);
  return schema ? `${quote(schema)}.${quote(tableName)}` : quote(tableName);
}
